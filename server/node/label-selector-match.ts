import type { V1LabelSelector, V1NodeSelectorRequirement } from '@kubernetes/client-node';

type Labels = Record<string, string> | undefined;

/** metav1.LabelSelector semantics: matchLabels AND matchExpressions; an empty selector matches everything. */
export function matchesLabelSelector(selector: V1LabelSelector | undefined, labels: Labels): boolean {
  if (!selector) return false; // a nil selector matches nothing (kube's LabelSelectorAsSelector(nil))
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(l, e.key);
    const values = e.values ?? [];
    if (e.operator === 'In' && !(has && values.includes(l[e.key]))) return false;
    if (e.operator === 'NotIn' && has && values.includes(l[e.key])) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** One NodeSelectorRequirement against a label (or field) map; Gt/Lt compare integers. */
export function matchesNodeRequirement(req: V1NodeSelectorRequirement, labels: Labels): boolean {
  const l = labels ?? {};
  const has = Object.hasOwn(l, req.key);
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return has && values.includes(l[req.key]);
    case 'NotIn':
      return !has || !values.includes(l[req.key]);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || values.length !== 1) return false;
      const [a, b] = [Number.parseInt(l[req.key], 10), Number.parseInt(values[0], 10)];
      if (Number.isNaN(a) || Number.isNaN(b)) return false;
      return req.operator === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}
