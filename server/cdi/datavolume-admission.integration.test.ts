/**
 * The DataVolume webhook against the real embedded API server (RBAC enforced), served by the upload
 * endpoint and registered as the storage component does: a user who may create DataVolumes in
 * their namespace but not clone from another one is refused with CDI's message; bound a clone role
 * in the source namespace, the same request is accepted. Same-namespace clones and imports never
 * need it.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server';
import { writeAdminKubeconfig } from '../apiserver/testing/admin-kubeconfig';
import { loadKubeConfig } from '../kube/kubeconfig';
import { createUploadServer } from './upload/upload-server';
import { registerDataVolumeWebhook } from './upload/register-webhook';

let api: TestServer;
let upload: Server;
let token: string;
const abort = new AbortController();
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const DVS = '/apis/cdi.kubevirt.io/v1beta1/namespaces/target/datavolumes';
const storage = { storage: { resources: { requests: { storage: '1Mi' } } } };
const dv = (name: string, source: unknown) => ({ apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', metadata: { name }, spec: { source, ...storage } });

async function created(path: string, body: unknown): Promise<void> {
  const res = await api.call('POST', path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}
const role = (name: string, rules: unknown) => created(`${RBAC}/clusterroles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules });
const bind = (ns: string, name: string, roleName: string) => created(`${RBAC}/namespaces/${ns}/rolebindings`, {
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
  subjects: [{ kind: 'ServiceAccount', name: 'alice', namespace: 'target' }],
});

beforeAll(async () => {
  api = await startTestServer();
  const kubeconfig = writeAdminKubeconfig(api);
  const kc = loadKubeConfig(kubeconfig);
  upload = createUploadServer(kc, { resolve: async () => ({ error: 'no uploads here', code: 404 }), finished: async () => {} });
  await new Promise<void>((resolve) => upload.listen(0, '127.0.0.1', resolve));
  await registerDataVolumeWebhook(kc, `http://127.0.0.1:${(upload.address() as AddressInfo).port}`, abort.signal);
  for (const ns of ['golden', 'target', 'secret']) await created('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await created('/api/v1/namespaces/target/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'alice' } });
  const tr = await api.call('POST', '/api/v1/namespaces/target/serviceaccounts/alice/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
  expect(tr.status).toBe(201);
  token = tr.body.status.token;
  await role('dv-creator', [{ apiGroups: ['cdi.kubevirt.io'], resources: ['datavolumes'], verbs: ['create', 'get'] }]);
  await role('dv-cloner', [{ apiGroups: ['cdi.kubevirt.io'], resources: ['datavolumes/source'], verbs: ['create'] }]);
  await bind('target', 'alice-dvs', 'dv-creator');
}, 60_000);

afterAll(async () => {
  abort.abort();
  upload?.close();
  await api?.close();
});

describe('DataVolume webhook: cross-namespace clones are authorized for the creating user', () => {
  it('refuses a clone from a namespace the user may not clone from, with CDI\'s message, then accepts it once allowed', async () => {
    const denied = await api.call('POST', DVS, dv('clone', { pvc: { namespace: 'golden', name: 'disk' } }), { token });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('admission webhook "datavolume-validate.cdi.kubevirt.io" denied the request: User system:serviceaccount:target:alice has insufficient permissions in clone source namespace golden');
    expect((await api.call('GET', `${DVS}/clone`)).status).toBe(404);

    await bind('golden', 'alice-clones', 'dv-cloner');
    const allowed = await api.call('POST', DVS, dv('clone', { pvc: { namespace: 'golden', name: 'disk' } }), { token });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
  }, 30_000);

  it('does not ask for same-namespace clones or imports', async () => {
    expect((await api.call('POST', DVS, dv('local', { pvc: { namespace: 'target', name: 'disk' } }), { token })).status).toBe(201);
    expect((await api.call('POST', DVS, dv('web', { http: { url: 'http://example.invalid/disk.img' } }), { token })).status).toBe(201);
  });

  it('judges the creating user: the admin may clone from where alice may not', async () => {
    const src = { pvc: { namespace: 'secret', name: 'disk' } };
    expect((await api.call('POST', DVS, dv('from-secret', src), { token })).status).toBe(403);
    expect((await api.call('POST', DVS, dv('from-secret', src))).status).toBe(201);
  });
});
