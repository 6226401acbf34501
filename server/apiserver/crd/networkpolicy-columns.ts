/** kubectl's columns for NetworkPolicy (kube's printNetworkPolicy: Pod-Selector, Age). */
import type { BuiltinColumn } from './builtin-columns';
import { humanAge } from './human-duration';

type Obj = Record<string, unknown>;

const rec = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** one requirement as labels.Selector prints it */
function requirementText(expr: Obj): string | undefined {
  const key = String(expr.key ?? '');
  const values = [...new Set(strings(expr.values))].sort().join(',');
  switch (expr.operator) {
    case 'In': return `${key} in (${values})`;
    case 'NotIn': return `${key} notin (${values})`;
    case 'Exists': return key;
    case 'DoesNotExist': return `!${key}`;
    default: return undefined;
  }
}

/** metav1.FormatLabelSelector: requirements sorted by key, `<none>` when empty, `<error>` when unreadable */
export function formatLabelSelector(selector: unknown): string {
  const s = rec(selector);
  const parts: [string, string][] = Object.entries(rec(s.matchLabels)).map(([k, v]) => [k, `${k}=${String(v)}`]);
  for (const expr of Array.isArray(s.matchExpressions) ? s.matchExpressions : []) {
    const text = requirementText(rec(expr));
    if (text === undefined) return '<error>';
    parts.push([String(rec(expr).key ?? ''), text]);
  }
  parts.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return parts.map(([, t]) => t).join(',') || '<none>';
}

export const NETWORK_POLICY_COLUMNS: BuiltinColumn[] = [
  { name: 'Pod-Selector', type: 'string', cell: (o) => formatLabelSelector(rec(rec(o).spec).podSelector) },
  { name: 'Age', type: 'string', cell: (o, now) => humanAge(rec(rec(o).metadata).creationTimestamp, now) },
];
