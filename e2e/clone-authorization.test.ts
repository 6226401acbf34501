/**
 * Cross-namespace clone authorization on a `kv up` cluster (no guests, no pod network): the
 * storage component's DataVolume webhook refuses a ServiceAccount's clone from a namespace it may
 * not clone from, with CDI's message, and takes it once a role is bound; a VM whose
 * dataVolumeTemplate clones from another namespace shows KubeVirt's Failure condition until its
 * ServiceAccount is allowed, then its DataVolume is created.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from './harness';
import { callRest, until, VMS, type Endpoint } from './support/rest';

let cluster: TestCluster;
let admin: Endpoint;
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const DVS = (ns: string) => `/apis/cdi.kubevirt.io/v1beta1/namespaces/${ns}/datavolumes`;
const dvSpec = { source: { pvc: { namespace: 'golden', name: 'disk' } }, storage: { resources: { requests: { storage: '16Mi' } } } };

async function created(ep: Endpoint, path: string, body: unknown): Promise<void> {
  const r = await callRest(ep, 'POST', path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}
const bindCloner = (name: string, subject: Record<string, string>) => created(admin, `${RBAC}/namespaces/golden/rolebindings`, {
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cloner' }, subjects: [subject],
});

beforeAll(async () => {
  cluster = await startCluster({ nodes: 1, console: false, env: { KV_POD_NETWORK: '0' } });
  admin = { url: cluster.access.server, ca: cluster.access.ca, token: cluster.access.token };
  for (const ns of ['golden', 'users', 'vms']) await created(admin, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await created(admin, `${RBAC}/clusterroles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'cloner' }, rules: [{ apiGroups: ['cdi.kubevirt.io'], resources: ['datavolumes/source'], verbs: ['create'] }] });
}, 180_000);
afterAll(async () => { await cluster?.stop(); }, 90_000);

describe('cross-namespace clones on a cluster', () => {
  it('the DataVolume webhook judges the creating user', async () => {
    await created(admin, '/api/v1/namespaces/users/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'alice' } });
    await created(admin, `${RBAC}/namespaces/users/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'alice-edit' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'ServiceAccount', name: 'alice', namespace: 'users' }],
    });
    const tr = await callRest(admin, 'POST', '/api/v1/namespaces/users/serviceaccounts/alice/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
    const alice = { ...admin, token: tr.body.status.token as string };
    const dv = { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', metadata: { name: 'copy' }, spec: dvSpec };
    // the webhook is registered by the storage component as it starts
    const denied = await until('the webhook answers', async () => {
      const r = await callRest(alice, 'POST', DVS('users'), dv);
      return r.status === 403 ? r : undefined;
    }, 60_000);
    expect(denied.body.message).toBe('admission webhook "datavolume-validate.cdi.kubevirt.io" denied the request: User system:serviceaccount:users:alice has insufficient permissions in clone source namespace golden');
    await bindCloner('alice', { kind: 'ServiceAccount', name: 'alice', namespace: 'users' });
    expect((await callRest(alice, 'POST', DVS('users'), dv)).status).toBe(201);
  }, 120_000);

  it('a VM\'s cross-namespace dataVolumeTemplate waits for its ServiceAccount to be allowed', async () => {
    await created(admin, VMS('vms'), {
      apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'vm1' },
      spec: {
        runStrategy: 'Halted',
        dataVolumeTemplates: [{ metadata: { name: 'root' }, spec: dvSpec }],
        template: { spec: { domain: { memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: {} }] } }, volumes: [{ name: 'root', dataVolume: { name: 'root' } }] } },
      },
    });
    const failure = async () => ((await callRest(admin, 'GET', `${VMS('vms')}/vm1`)).body.status?.conditions as { type: string; status: string; message?: string }[] | undefined)?.find((c) => c.type === 'Failure');
    const cond = await until('Failure condition', async () => { const c = await failure(); return c?.status === 'True' ? c : undefined; }, 60_000);
    expect(cond.message).toContain('User system:serviceaccount:vms:default has insufficient permissions in clone source namespace golden');
    expect((await callRest(admin, 'GET', `${DVS('vms')}/root`)).status).toBe(404);
    await bindCloner('vms-sas', { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:serviceaccounts:vms' });
    await until('DataVolume created', async () => (await callRest(admin, 'GET', `${DVS('vms')}/root`)).status === 200, 60_000);
    await until('Failure cleared', async () => (await failure()) === undefined, 60_000);
  }, 180_000);
});
