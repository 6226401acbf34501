/**
 * metav1.LabelSelector, as replica sets, pools and presets use it: matching a label map and the
 * selector string kube prints (`labels.Selector.String()`: requirements sorted by key,
 * `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`), which `status.labelSelector` carries.
 */
export interface LabelSelectorRequirement { key: string; operator: string; values?: string[] }
export interface LabelSelector { matchLabels?: Record<string, string>; matchExpressions?: LabelSelectorRequirement[] }

const OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/** kube's message for a selector LabelSelectorAsSelector refuses, or undefined when it is valid */
export function labelSelectorError(selector: LabelSelector | undefined | null): string | undefined {
  for (const e of selector?.matchExpressions ?? []) {
    if (!OPERATORS.includes(e.operator)) return `"${e.operator}" is not a valid label selector operator`;
    const n = e.values?.length ?? 0;
    if ((e.operator === 'In' || e.operator === 'NotIn') && n === 0) return 'for \'in\', \'notin\' operators, values set can\'t be empty';
    if ((e.operator === 'Exists' || e.operator === 'DoesNotExist') && n > 0) return 'values set must be empty for exists and does not exist';
  }
  return undefined;
}

function requirementHolds(e: LabelSelectorRequirement, labels: Record<string, string>): boolean {
  const has = Object.hasOwn(labels, e.key);
  const values = e.values ?? [];
  switch (e.operator) {
    case 'In': return has && values.includes(labels[e.key]);
    case 'NotIn': return !has || !values.includes(labels[e.key]);
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    default: return false;
  }
}

/** matchLabels AND matchExpressions; a missing selector matches nothing, an empty one everything */
export function selectorMatches(selector: LabelSelector | undefined | null, labels: Record<string, string> | undefined): boolean {
  if (!selector || labelSelectorError(selector)) return false;
  const l = labels ?? {};
  return Object.entries(selector.matchLabels ?? {}).every(([k, v]) => l[k] === v)
    && (selector.matchExpressions ?? []).every((e) => requirementHolds(e, l));
}

function requirementString(e: LabelSelectorRequirement): string {
  const values = [...(e.values ?? [])].sort().join(',');
  switch (e.operator) {
    case 'In': return `${e.key} in (${values})`;
    case 'NotIn': return `${e.key} notin (${values})`;
    case 'Exists': return e.key;
    default: return `!${e.key}`;
  }
}

/** the selector as kube prints it (`app=web,tier in (a,b)`) */
export function selectorString(selector: LabelSelector | undefined | null): string {
  if (!selector) return '';
  const reqs: { key: string; text: string }[] = [
    ...Object.entries(selector.matchLabels ?? {}).map(([key, v]) => ({ key, text: `${key}=${v}` })),
    ...(selector.matchExpressions ?? []).map((e) => ({ key: e.key, text: requirementString(e) })),
  ];
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((r) => r.text).join(',');
}
