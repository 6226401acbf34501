import { describe, expect, it } from 'vitest';
import { AUTOUPDATE } from './bootstrap-policy';
import type { Binding, Role } from './policy';
import { reconcileBinding, reconcileRole } from './reconcile-policy';

const expected: Role = { metadata: { name: 'r', labels: { a: '1' }, annotations: { [AUTOUPDATE]: 'true' } }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }] };

describe('bootstrap reconciliation', () => {
  it('adds missing rules and labels and keeps a user\'s additions', () => {
    const existing: Role = { metadata: { name: 'r', labels: { mine: 'x' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], apiGroups: [''], resources: ['nodes'] }] };
    const next = reconcileRole(existing, expected)!;
    expect(next.metadata.labels).toEqual({ a: '1', mine: 'x' });
    expect(next.rules).toEqual([...existing.rules!, { verbs: ['list'], apiGroups: [''], resources: ['pods'] }]);
  });

  it('changes nothing when the role already holds it all', () => {
    expect(reconcileRole(structuredClone(expected), expected)).toBeUndefined();
  });

  it('changes nothing when only the order of labels differs (no write at every start)', () => {
    const existing: Role = { ...structuredClone(expected), metadata: { name: 'r', labels: { mine: 'x', a: '1' }, annotations: { [AUTOUPDATE]: 'true' } } };
    expect(reconcileRole(existing, expected)).toBeUndefined();
  });

  it('leaves a role annotated autoupdate "false" alone', () => {
    expect(reconcileRole({ metadata: { name: 'r', annotations: { [AUTOUPDATE]: 'false' } }, rules: [] }, expected)).toBeUndefined();
  });

  const binding = (subjects: Binding['subjects'], roleName = 'view'): Binding => ({ metadata: { name: 'b' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName }, subjects });
  const group = (name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name });

  it('adds missing subjects to a binding and keeps others', () => {
    const next = reconcileBinding(binding([group('mine')]), binding([group('kv:viewers')]));
    expect(next).toMatchObject({ subjects: [group('mine'), group('kv:viewers')] });
  });

  it('recreates a binding whose roleRef differs (roleRef cannot change)', () => {
    expect(reconcileBinding(binding([], 'edit'), binding([]))).toBe('recreate');
  });
});
