import { describe, expect, it } from 'vitest';
import { bindingUpdateCauses, defaultBinding, validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding } from './rbac-validation';

const messages = (causes: { field?: string; message: string }[]) => causes.map((c) => `${c.field}: ${c.message}`);
const ref = (kind: string, name = 'view') => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });

describe('RBAC validation (kube messages)', () => {
  it.each([
    ['a rule without verbs', validateRole({ metadata: { name: 'r' }, rules: [{ apiGroups: [''], resources: ['pods'] }] }), 'rules[0].verbs: Required value: verbs must contain at least one value'],
    ['a resource rule without groups', validateRole({ metadata: { name: 'r' }, rules: [{ verbs: ['get'], resources: ['pods'] }] }), 'rules[0].apiGroups: Required value: resource rules must supply at least one api group'],
    ['a resource rule without resources', validateRole({ metadata: { name: 'r' }, rules: [{ verbs: ['get'], apiGroups: [''] }] }), 'rules[0].resources: Required value: resource rules must supply at least one resource'],
    ['a Role naming URLs', validateRole({ metadata: { name: 'r' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] }), 'rules[0].nonResourceURLs: Invalid value: ["/x"]: namespaced rules cannot apply to non-resource URLs'],
    ['URLs mixed with resources', validateClusterRole({ metadata: { name: 'r' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/x'], resources: ['pods'] }] }), 'rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs'],
    ['an empty aggregationRule', validateClusterRole({ metadata: { name: 'r' }, aggregationRule: {} }), 'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil'],
    ['a name with a slash', validateRole({ metadata: { name: 'a/b' }, rules: [] }), 'metadata.name: Invalid value: "a/b": may not contain \'/\''],
    ['a binding without roleRef', validateRoleBinding({ metadata: { name: 'b' } }), 'roleRef.kind: Unsupported value: "": supported values: "ClusterRole", "Role"'],
    ['a roleRef without name', validateRoleBinding({ metadata: { name: 'b' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role' } }), 'roleRef.name: Required value'],
    ['a roleRef in another group', validateRoleBinding({ metadata: { name: 'b' }, roleRef: { apiGroup: 'example.com', kind: 'Role', name: 'r' } }), 'roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"'],
    ['a ClusterRoleBinding to a Role', validateClusterRoleBinding({ metadata: { name: 'b' }, roleRef: ref('Role') }), 'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"'],
    ['an unknown subject kind', validateRoleBinding({ metadata: { name: 'b' }, roleRef: ref('ClusterRole'), subjects: [{ kind: 'Robot', name: 'x' }] }), 'subjects[0].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"'],
    ['a subject without name', validateRoleBinding({ metadata: { name: 'b' }, roleRef: ref('ClusterRole'), subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io' }] }), 'subjects[0].name: Required value'],
    ['a ServiceAccount with an apiGroup', validateRoleBinding({ metadata: { name: 'b' }, roleRef: ref('ClusterRole'), subjects: [{ kind: 'ServiceAccount', name: 'sa', apiGroup: 'rbac.authorization.k8s.io' }] }), 'subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""'],
    ['a cluster-wide ServiceAccount without namespace', validateClusterRoleBinding({ metadata: { name: 'b' }, roleRef: ref('ClusterRole'), subjects: [{ kind: 'ServiceAccount', name: 'sa' }] }), 'subjects[0].namespace: Required value'],
    ['a ServiceAccount name that is no DNS subdomain', validateRoleBinding({ metadata: { name: 'b' }, roleRef: ref('ClusterRole'), subjects: [{ kind: 'ServiceAccount', name: 'Bad_SA' }] }), 'subjects[0].name: Invalid value: "Bad_SA": a lowercase RFC 1123 subdomain'],
  ])('refuses %s', (_n, causes, expected) => {
    expect(messages(causes).some((m) => m.startsWith(expected))).toBe(true);
  });

  it('accepts valid roles and bindings (after v1 defaults)', () => {
    expect(validateClusterRole({ metadata: { name: 'kubevirt.io:view' }, rules: [{ verbs: ['get'], apiGroups: ['kubevirt.io'], resources: ['virtualmachines'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }] })).toEqual([]);
    const b: Record<string, unknown> = { metadata: { name: 'b' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'g' }, { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' }] };
    defaultBinding(b);
    expect(b).toMatchObject({ roleRef: { apiGroup: 'rbac.authorization.k8s.io' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io' }, { apiGroup: 'rbac.authorization.k8s.io' }, { name: 'sa' }] });
    expect((b.subjects as { apiGroup?: string }[])[2].apiGroup).toBeUndefined();
    expect(validateClusterRoleBinding(b)).toEqual([]);
  });

  it('refuses a changed roleRef on update', () => {
    const old = { metadata: { name: 'b' }, roleRef: ref('ClusterRole', 'view') };
    const causes = bindingUpdateCauses(validateRoleBinding)({ ...old, roleRef: ref('ClusterRole', 'edit') }, old);
    expect(messages(causes)).toEqual(['roleRef: Invalid value: {"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"edit"}: cannot change roleRef']);
  });
});
