import { describe, expect, it } from 'vitest';
import { checkBindingShape, checkRoleShape } from './rbac-shape';

describe('RBAC typed decoding', () => {
  it.each([
    ['subjects as an object', () => checkBindingShape('RoleBinding', { subjects: { kind: 'User' } }), 'RoleBinding in version "v1" cannot be handled as a RoleBinding: json: cannot unmarshal object into Go struct field RoleBinding.subjects of type []v1.Subject'],
    ['a subject name as a number', () => checkBindingShape('ClusterRoleBinding', { subjects: [{ kind: 'User', name: 7 }] }), 'json: cannot unmarshal number into Go struct field ClusterRoleBinding.subjects.name of type string'],
    ['roleRef as a string', () => checkBindingShape('RoleBinding', { roleRef: 'view' }), 'cannot unmarshal string into Go struct field RoleBinding.roleRef of type v1.RoleRef'],
    ['verbs as a string', () => checkRoleShape('Role', { rules: [{ verbs: 'get' }] }), 'cannot unmarshal string into Go struct field Role.rules.verbs of type []string'],
    ['a rule that is no object', () => checkRoleShape('ClusterRole', { rules: [1] }), 'cannot unmarshal number into Go struct field ClusterRole.rules of type v1.PolicyRule'],
    ['selectors as an object', () => checkRoleShape('ClusterRole', { aggregationRule: { clusterRoleSelectors: {} } }), 'cannot unmarshal object into Go struct field ClusterRole.aggregationRule.clusterRoleSelectors of type []v1.LabelSelector'],
  ])('refuses %s with a 400', (_n, check, message) => {
    expect(check).toThrow(message);
    try { check(); } catch (err) { expect((err as { code: number }).code).toBe(400); }
  });

  it('accepts well-typed objects and absent fields', () => {
    expect(() => checkRoleShape('ClusterRole', { rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } })).not.toThrow();
    expect(() => checkBindingShape('RoleBinding', { roleRef: { kind: 'Role', name: 'r' } })).not.toThrow();
  });
});
