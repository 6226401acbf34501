/**
 * kube's validation of rbac.authorization.k8s.io/v1 kinds (pkg/apis/rbac/validation): rules
 * need verbs and, for resources, apiGroups and resources; namespaced Roles cannot name
 * non-resource URLs; bindings reference a Role or ClusterRole in this API group; subjects are
 * User, Group or ServiceAccount; roleRef cannot change.
 */
import type { StatusCause } from '../../status-error';
import { asRecord, asString, invalidValue, notSupported, required, sameJson } from '../storage-kinds/field-errors';
import { RBAC_GROUP } from '../../../rbac/policy';

type Obj = Record<string, unknown>;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** path.IsValidPathSegmentName: what every RBAC object name and roleRef.name must be */
export function pathSegmentNameErrors(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) errs.push(`may not contain '${bad}'`);
  return errs;
}

function nameCauses(obj: Obj): StatusCause[] {
  const name = asString(asRecord(obj.metadata).name) ?? '';
  return pathSegmentNameErrors(name).map((m) => invalidValue('metadata.name', name, m));
}

function ruleCauses(rule: Obj, namespaced: boolean, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (list(rule.verbs).length === 0) causes.push(required(`${path}.verbs`, 'verbs must contain at least one value'));
  const urls = list(rule.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced) causes.push(invalidValue(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (list(rule.apiGroups).length || list(rule.resources).length || list(rule.resourceNames).length) {
      causes.push(invalidValue(`${path}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return causes;
  }
  if (list(rule.apiGroups).length === 0) causes.push(required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (list(rule.resources).length === 0) causes.push(required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return causes;
}

const rulesCauses = (obj: Obj, namespaced: boolean) => list(obj.rules).flatMap((r, i) => ruleCauses(asRecord(r), namespaced, `rules[${i}]`));

export const validateRole = (obj: unknown): StatusCause[] => [...nameCauses(asRecord(obj)), ...rulesCauses(asRecord(obj), true)];

export function validateClusterRole(obj: unknown): StatusCause[] {
  const o = asRecord(obj);
  const causes = [...nameCauses(o), ...rulesCauses(o, false)];
  if (o.aggregationRule !== undefined && o.aggregationRule !== null && list(asRecord(o.aggregationRule).clusterRoleSelectors).length === 0) {
    causes.push(required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  }
  return causes;
}

function subjectCauses(s: Obj, namespaced: boolean, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = asString(s.name) ?? '';
  const apiGroup = asString(s.apiGroup) ?? '';
  if (!name) causes.push(required(`${path}.name`));
  switch (s.kind) {
    case 'ServiceAccount':
      if (name && !(name.length <= 253 && DNS1123_SUBDOMAIN.test(name))) causes.push(invalidValue(`${path}.name`, name, SUBDOMAIN_MSG));
      if (apiGroup) causes.push(notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && !asString(s.namespace)) causes.push(required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) causes.push(notSupported(`${path}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      causes.push(notSupported(`${path}.kind`, s.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return causes;
}

function bindingCauses(obj: unknown, namespaced: boolean): StatusCause[] {
  const o = asRecord(obj);
  const ref = asRecord(o.roleRef);
  const causes = nameCauses(o);
  const apiGroup = asString(ref.apiGroup) ?? '';
  if (apiGroup !== RBAC_GROUP) causes.push(notSupported('roleRef.apiGroup', apiGroup, [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(String(ref.kind ?? ''))) causes.push(notSupported('roleRef.kind', ref.kind ?? '', kinds));
  const refName = asString(ref.name) ?? '';
  if (!refName) causes.push(required('roleRef.name'));
  else causes.push(...pathSegmentNameErrors(refName).map((m) => invalidValue('roleRef.name', refName, m)));
  list(o.subjects).forEach((s, i) => causes.push(...subjectCauses(asRecord(s), namespaced, `subjects[${i}]`)));
  return causes;
}

export const validateRoleBinding = (obj: unknown) => bindingCauses(obj, true);
export const validateClusterRoleBinding = (obj: unknown) => bindingCauses(obj, false);

/** the binding's own rules, then: roleRef is fixed once created */
export function bindingUpdateCauses(validate: (o: unknown) => StatusCause[]) {
  return (obj: unknown, old: unknown): StatusCause[] => {
    const causes = validate(obj);
    const ref = asRecord(asRecord(obj).roleRef);
    if (!sameJson(ref, asRecord(asRecord(old).roleRef))) causes.push(invalidValue('roleRef', ref, 'cannot change roleRef'));
    return causes;
  };
}

/** v1 defaults: roleRef.apiGroup and User/Group subjects' apiGroup are rbac.authorization.k8s.io */
export function defaultBinding(obj: Obj): void {
  if (obj.roleRef !== null && typeof obj.roleRef === 'object' && !Array.isArray(obj.roleRef)) {
    const ref = obj.roleRef as Obj;
    if (!ref.apiGroup) ref.apiGroup = RBAC_GROUP;
  }
  for (const s of list(obj.subjects)) {
    if (s === null || typeof s !== 'object' || Array.isArray(s)) continue;
    const subj = s as Obj;
    if (!subj.apiGroup && (subj.kind === 'User' || subj.kind === 'Group')) subj.apiGroup = RBAC_GROUP;
  }
}

