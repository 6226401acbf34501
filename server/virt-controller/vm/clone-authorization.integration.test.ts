/**
 * A VM whose dataVolumeTemplate clones a claim from another namespace, against the real embedded
 * API server (RBAC enforced): KubeVirt's "deny then allow clone request". Until the VM's
 * ServiceAccount may clone there, the VM shows Failure=True (insufficient permissions in clone
 * source namespace), no DataVolume is created and the VM does not start; once a role is bound the
 * condition clears, the DataVolume appears and the VMI is created. A DataVolume already there is
 * not authorized again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from '../../apiserver/testing/test-server';
import { writeAdminKubeconfig } from '../../apiserver/testing/admin-kubeconfig';
import { makeKubeClients } from '../../kube/clients';
import { EventRecorder } from '../../kube/events';
import { loadKubeConfig } from '../../kube/kubeconfig';
import { VMController } from './vm-controller';

let api: TestServer;
const abort = new AbortController();
const SRC = 'golden';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const vms = (ns: string, name = '') => `/apis/kubevirt.io/v1/namespaces/${ns}/virtualmachines${name ? `/${name}` : ''}`;
const dvs = (ns: string, name = '') => `/apis/cdi.kubevirt.io/v1beta1/namespaces/${ns}/datavolumes${name ? `/${name}` : ''}`;
const vmiPath = (ns: string, name: string) => `/apis/kubevirt.io/v1/namespaces/${ns}/virtualmachineinstances/${name}`;
interface Cond { type: string; status: string; reason?: string; message?: string }
const failure = async (ns: string, name: string): Promise<Cond | undefined> =>
  ((await api.call('GET', vms(ns, name))).body.status?.conditions as Cond[] | undefined)?.find((c) => c.type === 'Failure');

const dvSpec = { source: { pvc: { namespace: SRC, name: 'disk' } }, storage: { resources: { requests: { storage: '1Mi' } } } };
function vm(name: string, dvName: string, serviceAccount?: string) {
  const volumes: Record<string, unknown>[] = [{ name: 'root', dataVolume: { name: dvName } }];
  if (serviceAccount) volumes.push({ name: 'sa', serviceAccount: { serviceAccountName: serviceAccount } });
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name },
    spec: {
      runStrategy: 'Always',
      dataVolumeTemplates: [{ metadata: { name: dvName }, spec: dvSpec }],
      template: { spec: { domain: { memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: {} }] } }, volumes } },
    },
  };
}

async function created(path: string, body: unknown): Promise<void> {
  const res = await api.call('POST', path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

beforeAll(async () => {
  api = await startTestServer();
  const kubeconfig = writeAdminKubeconfig(api);
  const clients = makeKubeClients(loadKubeConfig(kubeconfig));
  for (const ns of [SRC, 'explicit', 'implicit', 'existing']) await created('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await created(`/api/v1/namespaces/${SRC}/persistentvolumeclaims`, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'disk' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Mi' } } } });
  await created(`${RBAC}/clusterroles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'explicit-cloner' }, rules: [{ apiGroups: ['cdi.kubevirt.io'], resources: ['datavolumes/source'], verbs: ['create'] }] });
  await created(`${RBAC}/clusterroles`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'implicit-cloner' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['create'] }] });
  void new VMController({ clients, recorder: new EventRecorder(clients.core, { component: 'test' }) }).run(abort.signal);
}, 60_000);

afterAll(async () => {
  abort.abort();
  await api?.close();
});

const bind = (name: string, role: string, subject: Record<string, string>) => created(`${RBAC}/namespaces/${SRC}/rolebindings`, {
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [subject],
});

describe('cross-namespace clone authorization for dataVolumeTemplates', () => {
  it.each([
    ['explicit', 'explicit-cloner', undefined, { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:serviceaccounts:explicit' }],
    ['implicit', 'implicit-cloner', 'cloner', { kind: 'ServiceAccount', name: 'cloner', namespace: 'implicit' }],
  ] as const)('%s: denied until the role is bound, then the DataVolume is created and the VM starts', async (ns, role, sa, subject) => {
    await created(vms(ns), vm('vm1', 'dv1', sa));
    const denied = await waitFor(async () => {
      const c = await failure(ns, 'vm1');
      return c?.status === 'True' ? c : undefined;
    }, 15_000, 'Failure condition') as Cond;
    expect(denied).toMatchObject({ reason: 'FailedCreate' });
    expect(denied.message).toBe(`Error encountered while creating DataVolumes: not authorized to create DataVolume: User system:serviceaccount:${ns}:${sa ?? 'default'} has insufficient permissions in clone source namespace ${SRC}`);
    expect((await api.call('GET', dvs(ns, 'dv1'))).status).toBe(404);
    expect((await api.call('GET', vmiPath(ns, 'vm1'))).status).toBe(404);
    const events = (await api.call('GET', `/api/v1/namespaces/${ns}/events`)).body.items as { reason: string; message: string }[];
    expect(events.some((e) => e.reason === 'UnauthorizedDataVolumeCreate' && e.message.startsWith('Not authorized to create DataVolume dv1: User'))).toBe(true);

    await bind(`${ns}-clone`, role, subject);
    await waitFor(async () => (await api.call('GET', dvs(ns, 'dv1'))).status === 200, 15_000, 'DataVolume created');
    await waitFor(async () => (await failure(ns, 'vm1')) === undefined, 15_000, 'Failure condition cleared');
    await waitFor(async () => (await api.call('GET', vmiPath(ns, 'vm1'))).status === 200, 15_000, 'VMI created');
  }, 60_000);

  it('skips authorization when the DataVolume already exists', async () => {
    await created(dvs('existing'), { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', metadata: { name: 'dv1' }, spec: dvSpec });
    await created(vms('existing'), vm('vm1', 'dv1'));
    await waitFor(async () => (await api.call('GET', vmiPath('existing', 'vm1'))).status === 200, 15_000, 'VMI created');
    expect(await failure('existing', 'vm1')).toBeUndefined();
  }, 30_000);
});
