import { describe, expect, it } from 'vitest';
import { aggregatedRules, settleAggregation } from './aggregation';
import type { Role } from './policy';

const role = (name: string, labels: Record<string, string>, rules: Role['rules'], selectorLabel?: string): Role => ({
  metadata: { name, labels }, rules,
  ...(selectorLabel ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [selectorLabel]: 'true' } }] } } : {}),
});

describe('ClusterRole aggregation', () => {
  const a = role('a', { 'to-x': 'true' }, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
  const b = role('b', { 'to-x': 'true' }, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['list'], apiGroups: [''], resources: ['pods'] }]);
  const other = role('c', { unrelated: 'true' }, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);

  it('unions the rules of the matching roles in name order, without duplicates', () => {
    expect(aggregatedRules(role('x', {}, [], 'to-x'), [b, other, a])).toEqual([
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
    ]);
  });

  it('settles chains (view → edit → admin) in one call', () => {
    const view = role('view', { 'to-edit': 'true' }, [], 'to-view');
    const edit = role('edit', { 'to-admin': 'true' }, [], 'to-edit');
    const admin = role('admin', {}, [], 'to-admin');
    const vmView = role('vm-view', { 'to-view': 'true' }, [{ verbs: ['get'], apiGroups: ['kubevirt.io'], resources: ['virtualmachines'] }]);
    const changed = settleAggregation([admin, edit, view, vmView]);
    expect(changed.get('admin')).toEqual(vmView.rules);
    expect(changed.get('edit')).toEqual(vmView.rules);
    expect(changed.get('view')).toEqual(vmView.rules);
  });

  it('reports nothing when every aggregated role is current', () => {
    expect(settleAggregation([a, role('x', {}, a.rules, 'to-x')]).size).toBe(0);
  });
});
