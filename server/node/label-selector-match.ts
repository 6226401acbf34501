import type { V1LabelSelector, V1LabelSelectorRequirement, V1NodeSelectorRequirement } from '@kubernetes/client-node';

type Labels = Record<string, string>;

function matchesSetExpression(op: string, key: string, values: string[], labels: Labels): boolean {
  const has = Object.hasOwn(labels, key);
  switch (op) {
    case 'In':
      return has && values.includes(labels[key]);
    case 'NotIn':
      return !has || !values.includes(labels[key]);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      return false;
  }
}

function matchesIntExpression(op: 'Gt' | 'Lt', key: string, values: string[], labels: Labels): boolean {
  if (!Object.hasOwn(labels, key) || values.length !== 1) return false;
  const a = Number.parseInt(labels[key], 10);
  const b = Number.parseInt(values[0], 10);
  if (Number.isNaN(a) || Number.isNaN(b)) return false;
  return op === 'Gt' ? a > b : a < b;
}

/** metav1.LabelSelector semantics: matchLabels AND matchExpressions; a nil selector matches nothing, {} everything. */
export function matchesLabelSelector(selector: V1LabelSelector | undefined, labels: Labels | undefined): boolean {
  if (!selector) return false;
  const l = labels ?? {};
  const labelsOk = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => l[k] === v);
  return labelsOk && (selector.matchExpressions ?? []).every((e: V1LabelSelectorRequirement) => matchesSetExpression(e.operator, e.key, e.values ?? [], l));
}

/** One NodeSelectorRequirement against a label (or field) map; Gt/Lt compare integers. */
export function matchesNodeRequirement(req: V1NodeSelectorRequirement, labels: Labels | undefined): boolean {
  const l = labels ?? {};
  if (req.operator === 'Gt' || req.operator === 'Lt') return matchesIntExpression(req.operator, req.key, req.values ?? [], l);
  return matchesSetExpression(req.operator, req.key, req.values ?? [], l);
}
