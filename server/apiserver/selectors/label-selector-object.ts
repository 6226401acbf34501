import { newRequirement, type LabelOperator, type LabelSelector, type LabelRequirement } from './label-selector';
import { SelectorError } from './selector-error';

const EXPRESSION_OPERATORS: Record<string, LabelOperator> = {
  In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!',
};

export interface LabelSelectorObject {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: { key: string; operator: string; values?: string[] | null }[] | null;
}

/**
 * A metav1.LabelSelector as kube reads it: null/undefined matches nothing, `{}` matches
 * everything, matchLabels and matchExpressions must all hold.
 */
export function labelSelectorFromObject(sel: LabelSelectorObject | null | undefined): LabelSelector {
  if (sel === null || sel === undefined) return { requirements: [], nothing: true };
  const requirements: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(sel.matchLabels ?? {})) {
    requirements.push(newRequirement(key, '=', [value]));
  }
  for (const expr of sel.matchExpressions ?? []) {
    const operator = EXPRESSION_OPERATORS[expr.operator];
    if (!operator) throw new SelectorError(`${JSON.stringify(expr.operator)} is not a valid label selector operator`);
    const values = [...new Set(expr.values ?? [])].sort();
    requirements.push(newRequirement(expr.key, operator, values));
  }
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { requirements };
}
