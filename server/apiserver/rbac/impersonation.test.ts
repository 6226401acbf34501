import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { impersonatedUser } from './impersonation';
import { bootstrapIndex } from './testing-policy';

const index = bootstrapIndex({
  clusterRoles: [{ metadata: { name: 'impersonate-alice' }, rules: [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['alice'] }] }],
  clusterRoleBindings: [{ metadata: { name: 'ops' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'impersonate-alice' }, subjects: [{ kind: 'User', name: 'ops' }] }],
});
const ctx = { rbac: { current: () => index } } as never;
const admin = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };
const ops = { username: 'ops', groups: ['system:authenticated'] };

function req(headers: Record<string, string[]>): IncomingMessage {
  return { headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.join(', ')])), headersDistinct: headers } as unknown as IncomingMessage;
}

describe('impersonation', () => {
  it('without headers the signed-in user acts', () => {
    expect(impersonatedUser(ctx, ops, req({}))).toBe(ops);
  });

  it('a cluster-admin becomes the named user with the named groups, plus system:authenticated', () => {
    expect(impersonatedUser(ctx, admin, req({ 'impersonate-user': ['bob'], 'impersonate-group': ['devs', 'qa'] }))).toEqual({ username: 'bob', groups: ['devs', 'qa', 'system:authenticated'] });
  });

  it('a ServiceAccount username gets the ServiceAccount groups', () => {
    expect(impersonatedUser(ctx, admin, req({ 'impersonate-user': ['system:serviceaccount:team:builder'] }))).toEqual({
      username: 'system:serviceaccount:team:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
    });
  });

  it('resourceNames limit whom a user may impersonate', () => {
    expect(impersonatedUser(ctx, ops, req({ 'impersonate-user': ['alice'] })).username).toBe('alice');
    expect(() => impersonatedUser(ctx, ops, req({ 'impersonate-user': ['bob'] }))).toThrow('users "bob" is forbidden: User "ops" cannot impersonate resource "users" in API group "" at the cluster scope');
    expect(() => impersonatedUser(ctx, ops, req({ 'impersonate-user': ['alice'], 'impersonate-group': ['system:masters'] }))).toThrow('groups "system:masters" is forbidden');
  });

  it('groups without a user are a bad request', () => {
    expect(() => impersonatedUser(ctx, admin, req({ 'impersonate-group': ['devs'] }))).toThrow(/without impersonating a user/);
  });
});
