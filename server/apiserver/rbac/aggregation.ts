/**
 * ClusterRole aggregation (kube's clusterrole-aggregation controller, as a pure function): a
 * ClusterRole with an aggregationRule holds the union of the rules of every other ClusterRole
 * any of its clusterRoleSelectors matches, in name order, without duplicates. Applied until
 * nothing changes, so chains (view → edit → admin) settle in one pass.
 */
import { labelSelectorFromObject, matchLabels, SelectorError } from '../selectors';
import type { PolicyRule, Role } from './policy';

function matches(role: Role, selectors: NonNullable<Role['aggregationRule']>['clusterRoleSelectors']): boolean {
  return (selectors ?? []).some((s) => {
    try { return matchLabels(labelSelectorFromObject(s), role.metadata.labels ?? {}); } catch (err) { if (err instanceof SelectorError) return false; throw err; }
  });
}

export function aggregatedRules(target: Role, all: readonly Role[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  const seen = new Set<string>();
  const sources = all.filter((r) => r.metadata.name !== target.metadata.name && matches(r, target.aggregationRule?.clusterRoleSelectors)).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  for (const source of sources) {
    for (const rule of source.rules ?? []) {
      const key = JSON.stringify(rule);
      if (seen.has(key)) continue;
      seen.add(key);
      rules.push(rule);
    }
  }
  return rules;
}

/** the aggregated roles whose rules change, with their new rules (all roles settled in memory) */
export function settleAggregation(roles: readonly Role[]): Map<string, PolicyRule[]> {
  const current = roles.map((r) => ({ ...r, rules: r.rules ?? [] }));
  const changed = new Map<string, PolicyRule[]>();
  for (let pass = 0; pass < 10; pass++) {
    let any = false;
    for (const role of current) {
      if (!role.aggregationRule) continue;
      const next = aggregatedRules(role, current);
      if (JSON.stringify(next) === JSON.stringify(role.rules)) continue;
      role.rules = next;
      changed.set(role.metadata.name, next);
      any = true;
    }
    if (!any) break;
  }
  return changed;
}
