/**
 * Cost of one RBAC decision (every API request pays it) and of rebuilding the index (every
 * RBAC write pays it once), on the bootstrap policy plus N namespaces with 3 RoleBindings each.
 * Usage: node --import tsx bench/rbac-authorize-bench.ts [namespaces=10,1000] [ops=200000]
 */
import { authorizeWith } from '../server/apiserver/rbac/authorizer';
import { settleAggregation } from '../server/apiserver/rbac/aggregation';
import type { Binding, Role } from '../server/apiserver/rbac/policy';
import { RbacIndex, type PolicyObjects } from '../server/apiserver/rbac/rbac-index';
import { BOOTSTRAP_CLUSTER_ROLES, BOOTSTRAP_CLUSTER_ROLE_BINDINGS } from '../server/apiserver/rbac/reconcile-policy';

const SIZES = (process.argv[2] ?? '10,1000').split(',').map(Number);
const OPS = Number(process.argv[3] ?? 200_000);
const out = (line: string) => process.stdout.write(`${line}\n`);

function policy(namespaces: number): PolicyObjects {
  const clusterRoles: Role[] = structuredClone(BOOTSTRAP_CLUSTER_ROLES);
  const changed = settleAggregation(clusterRoles);
  for (const r of clusterRoles) r.rules = changed.get(r.metadata.name) ?? r.rules;
  const roleBindings: Binding[] = [];
  for (let i = 0; i < namespaces; i++) {
    for (const [user, role] of [[`viewer-${i}`, 'view'], [`editor-${i}`, 'edit'], [`admin-${i}`, 'admin']]) {
      roleBindings.push({ metadata: { name: `${user}-${role}`, namespace: `ns-${i}` }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [{ kind: 'User', name: user }] });
    }
  }
  return { clusterRoles, clusterRoleBindings: BOOTSTRAP_CLUSTER_ROLE_BINDINGS, roles: [], roleBindings };
}

const CASES = [
  ['editor starts a VM (allowed, deep in edit)', { username: 'editor-3', groups: ['system:authenticated'] }, { verb: 'update', group: 'subresources.kubevirt.io', resource: 'virtualmachines', subresource: 'start', namespace: 'ns-3', name: 'vm' }],
  ['viewer reads a secret (denied, every rule scanned)', { username: 'viewer-3', groups: ['system:authenticated'] }, { verb: 'get', group: '', resource: 'secrets', namespace: 'ns-3', name: 's' }],
  ['kv:viewers lists VMs (group binding)', { username: 'viewer', groups: ['kv:viewers', 'system:authenticated'] }, { verb: 'list', group: 'kubevirt.io', resource: 'virtualmachines', namespace: 'ns-3' }],
  ['system:masters (bypass)', { username: 'admin', groups: ['system:masters', 'system:authenticated'] }, { verb: 'delete', group: '', resource: 'pods', namespace: 'ns-3', name: 'p' }],
] as const;

for (const n of SIZES) {
  const objs = policy(n);
  const t0 = performance.now();
  const builds = 20;
  let index = new RbacIndex(objs);
  for (let i = 1; i < builds; i++) index = new RbacIndex(objs);
  out(`${n} namespaces (${objs.roleBindings.length} RoleBindings, ${objs.clusterRoles.length} ClusterRoles): index rebuild ${((performance.now() - t0) / builds).toFixed(2)} ms`);
  for (const [name, user, attrs] of CASES) {
    for (let i = 0; i < 10_000; i++) authorizeWith(index, { ...user, groups: [...user.groups] }, attrs);
    const start = process.hrtime.bigint();
    let allowed = 0;
    const u = { ...user, groups: [...user.groups] };
    for (let i = 0; i < OPS; i++) if (authorizeWith(index, u, attrs).allowed) allowed++;
    const ns = Number(process.hrtime.bigint() - start) / OPS;
    out(`  ${name}: ${ns.toFixed(0)} ns/op (${allowed === OPS ? 'allowed' : allowed === 0 ? 'denied' : 'mixed'})`);
  }
}
