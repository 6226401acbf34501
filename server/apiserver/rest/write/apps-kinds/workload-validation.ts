/**
 * kube's apps/v1 validation of Deployment, ReplicaSet and DaemonSet (ValidateDeployment & co.),
 * reduced to the checks a user meets: a selector that is present, non-empty and matches the
 * template's labels, replicas ≥ 0, a template with containers that always restarts, a valid
 * strategy; the selector is immutable.
 */
import { selectorMatches, type LabelSelector } from '../../../../../lib/kubevirt';
import type { StatusCause } from '../../status-error';
import { asRecord, forbidden, immutable, invalidValue, notSupported, required, sameJson } from '../storage-kinds/field-errors';
import { labelSelectorCauses } from '../network-kinds/selector-validation';

type Obj = Record<string, unknown>;

/** Go's %#v of a map[string]string, keys sorted: `map[string]string{"app":"web"}` */
export function goStringMap(m: Record<string, unknown>): string {
  const keys = Object.keys(m).sort();
  return `map[string]string{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(String(m[k]))}`).join(', ')}}`;
}

const invalidRaw = (field: string, printed: string, detail: string): StatusCause =>
  ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${printed}: ${detail}` });

function nonNegative(field: string, v: unknown): StatusCause[] {
  if (v === undefined) return [];
  if (typeof v !== 'number' || !Number.isInteger(v)) return [invalidValue(field, v, 'must be an integer')];
  return v < 0 ? [invalidValue(field, v, 'must be greater than or equal to 0')] : [];
}

/** selector present and non-empty, valid, and matching the template labels; the template runs containers and restarts Always */
function selectorAndTemplate(spec: Obj, kind: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const selector = spec.selector;
  if (selector === undefined || selector === null) causes.push(required('spec.selector'));
  else {
    const s = asRecord(selector);
    const empty = Object.keys(asRecord(s.matchLabels)).length === 0 && !(Array.isArray(s.matchExpressions) && s.matchExpressions.length > 0);
    if (empty) causes.push(invalidRaw('spec.selector', 'v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}', `empty selector is invalid for ${kind}`));
    causes.push(...labelSelectorCauses(selector, 'spec.selector'));
  }
  const template = asRecord(spec.template);
  const labels = asRecord(asRecord(template.metadata).labels);
  if (selector && causes.length === 0 && !selectorMatches(selector as LabelSelector, labels as Record<string, string>)) {
    causes.push(invalidRaw('spec.template.metadata.labels', goStringMap(labels), '`selector` does not match template `labels`'));
  }
  const podSpec = asRecord(template.spec);
  if (!Array.isArray(podSpec.containers) || podSpec.containers.length === 0) causes.push(required('spec.template.spec.containers'));
  else podSpec.containers.forEach((c, i) => {
    const container = asRecord(c);
    if (!container.name) causes.push(required(`spec.template.spec.containers[${i}].name`));
    if (!container.image) causes.push(required(`spec.template.spec.containers[${i}].image`));
  });
  const restart = podSpec.restartPolicy;
  if (restart !== undefined && restart !== 'Always') causes.push(notSupported('spec.template.spec.restartPolicy', restart, ['Always']));
  return causes;
}

/** an IntOrString percentage or count: kube's ValidatePositiveIntOrPercent */
function intOrPercent(field: string, v: unknown): StatusCause[] {
  if (typeof v === 'number') return nonNegative(field, v);
  if (typeof v === 'string') {
    const m = /^(\d+)%$/.exec(v);
    if (!m) return [invalidValue(field, v, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")];
    return Number(m[1]) > 100 ? [invalidValue(field, v, 'must not be greater than 100%')] : [];
  }
  return [];
}

const isZero = (v: unknown) => v === 0 || v === '0%';

function rollingUpdateCauses(ru: Obj, path: string): StatusCause[] {
  const causes = [...intOrPercent(`${path}.maxUnavailable`, ru.maxUnavailable), ...intOrPercent(`${path}.maxSurge`, ru.maxSurge)];
  if (causes.length === 0 && isZero(ru.maxSurge) && isZero(ru.maxUnavailable)) {
    causes.push(invalidValue(`${path}.maxUnavailable`, ru.maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
  }
  return causes;
}

function deploymentStrategy(spec: Obj): StatusCause[] {
  const strategy = asRecord(spec.strategy);
  const type = strategy.type;
  if (type === 'Recreate') {
    return strategy.rollingUpdate ? [forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'")] : [];
  }
  if (type !== 'RollingUpdate') return [notSupported('spec.strategy.type', type, ['Recreate', 'RollingUpdate'])];
  return rollingUpdateCauses(asRecord(strategy.rollingUpdate), 'spec.strategy.rollingUpdate');
}

export function validateDeployment(obj: unknown): StatusCause[] {
  const spec = asRecord(asRecord(obj).spec);
  return [
    ...nonNegative('spec.replicas', spec.replicas),
    ...selectorAndTemplate(spec, 'deployment'),
    ...deploymentStrategy(spec),
    ...nonNegative('spec.minReadySeconds', spec.minReadySeconds),
    ...nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit),
  ];
}

export function validateReplicaSet(obj: unknown): StatusCause[] {
  const spec = asRecord(asRecord(obj).spec);
  return [...nonNegative('spec.replicas', spec.replicas), ...selectorAndTemplate(spec, 'replicaset'), ...nonNegative('spec.minReadySeconds', spec.minReadySeconds)];
}

export function validateDaemonSet(obj: unknown): StatusCause[] {
  const spec = asRecord(asRecord(obj).spec);
  const strategy = asRecord(spec.updateStrategy);
  const causes = [...selectorAndTemplate(spec, 'daemonset'), ...nonNegative('spec.minReadySeconds', spec.minReadySeconds)];
  if (strategy.type !== 'RollingUpdate' && strategy.type !== 'OnDelete') causes.push(notSupported('spec.updateStrategy.type', strategy.type, ['OnDelete', 'RollingUpdate']));
  else if (strategy.type === 'RollingUpdate') causes.push(...rollingUpdateCauses(asRecord(strategy.rollingUpdate), 'spec.updateStrategy.rollingUpdate'));
  return causes;
}

/** the selector never changes after create (apps/v1) */
function selectorImmutable(obj: unknown, old: unknown): StatusCause[] {
  const a = asRecord(asRecord(obj).spec).selector;
  const b = asRecord(asRecord(old).spec).selector;
  return sameJson(a, b) ? [] : [immutable('spec.selector', a)];
}

export const validateDeploymentUpdate = (obj: unknown, old: unknown) => [...validateDeployment(obj), ...selectorImmutable(obj, old)];
export const validateReplicaSetUpdate = (obj: unknown, old: unknown) => [...validateReplicaSet(obj), ...selectorImmutable(obj, old)];
export const validateDaemonSetUpdate = (obj: unknown, old: unknown) => [...validateDaemonSet(obj), ...selectorImmutable(obj, old)];
