/**
 * The VMI controller against a real (embedded) API server. The scheduler and kubelet are played
 * by the test: it binds the launcher Pod and writes its status, as they would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubeClients } from '../../kube/clients';
import { EventRecorder } from '../../kube/events';
import { makeKubeConfig } from '../../kube/kubeconfig';
import { startTestServer, waitFor, type TestServer } from '../../apiserver/testing/test-server';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import { VMIController } from './vmi-controller';

let api: TestServer;
let abort: AbortController;
let controller: VMIController;
const images = new Set(['demo']);
let vmStateStorageClass: string | undefined;
const NS = 'default';
const vmis = `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances`;

const newVMI = (name: string, image = 'demo') => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: NS },
  spec: { domain: { memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } }, volumes: [{ name: 'root', containerDisk: { image } }] },
});
const getVMI = async (name: string) => (await api.call('GET', `${vmis}/${name}`)).body;
/** the fields of a launcher Pod these tests read */
type PodView = { metadata: { name: string; uid: string; deletionTimestamp?: string; annotations: Record<string, string> }; spec: { containers: { image: string }[]; volumes: object[] } };
const launcherPods = async (uid: string) => (await api.call('GET', `/api/v1/namespaces/${NS}/pods?labelSelector=kubevirt.io/created-by=${uid}`)).body.items as PodView[];
const cond = (vmi: VirtualMachineInstance, type: string) => vmi.status?.conditions?.find((c) => c.type === type);

async function bindAndRun(pod: PodView, node: string): Promise<void> {
  const name = pod.metadata.name;
  const bind = await api.call('POST', `/api/v1/namespaces/${NS}/pods/${name}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: node } });
  expect(bind.status).toBeLessThan(300);
  const now = new Date().toISOString();
  const status = {
    phase: 'Running', qosClass: 'Burstable', startTime: now,
    conditions: [{ type: 'PodScheduled', status: 'True' }, { type: 'Ready', status: 'True' }],
    containerStatuses: [{ name: 'compute', ready: true, restartCount: 0, image: 'x', imageID: '', state: { running: { startedAt: now } } }],
  };
  const res = await api.call('PATCH', `/api/v1/namespaces/${NS}/pods/${name}/status`, { status }, { contentType: 'application/merge-patch+json' });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  api = await startTestServer();
  const clients = makeKubeClients(makeKubeConfig({ server: api.srv.url, token: api.srv.adminToken, caPem: api.srv.caPem }));
  controller = new VMIController({ clients, recorder: new EventRecorder(clients.core, { component: 'virt-controller' }), imageExists: (r) => images.has(r), vmStateStorageClass: () => vmStateStorageClass });
  abort = new AbortController();
  void controller.run(abort.signal);
});
afterAll(async () => { abort.abort(); await api.close(); });

describe('VMI controller on a real API server', () => {
  it('creates one launcher Pod, hands over at Running and cleans up on delete', async () => {
    const created = await api.call('POST', vmis, newVMI('alpha'));
    expect(created.status).toBe(201);
    const uid = created.body.metadata.uid;
    const pods = await waitFor(async () => { const p = await launcherPods(uid); return p.length ? p : undefined; }, 5000, 'launcher pod') as PodView[];
    await waitFor(async () => { const v = await getVMI('alpha'); return v.status?.phase === 'Scheduling' && v.metadata.finalizers?.includes('kubevirt.io/foregroundDeleteVirtualMachine'); }, 5000, 'Scheduling with finalizer');

    await bindAndRun(pods[0], 'node-1');
    const scheduled = await waitFor(async () => { const v = await getVMI('alpha'); return v.status?.phase === 'Scheduled' && v.metadata.labels?.['kubevirt.io/nodeName'] ? v : undefined; }, 5000, 'Scheduled');
    expect(scheduled.status).toMatchObject({ nodeName: 'node-1', activePods: { [pods[0].metadata.uid]: 'node-1' }, qosClass: 'Burstable' });
    expect(scheduled.status.phaseTransitionTimestamps.map((t: { phase: string }) => t.phase)).toEqual(['Pending', 'Scheduling', 'Scheduled']);
    expect(await launcherPods(uid)).toHaveLength(1);

    await api.call('DELETE', `${vmis}/alpha`);
    await waitFor(async () => (await launcherPods(uid)).every((p) => p.metadata.deletionTimestamp), 5000, 'pod deletion requested');
    // the kubelet finishes the pod
    expect((await api.call('DELETE', `/api/v1/namespaces/${NS}/pods/${pods[0].metadata.name}?gracePeriodSeconds=0`)).status).toBe(200);
    await waitFor(async () => (await api.call('GET', `${vmis}/alpha`)).status === 404, 5000, 'VMI gone');
  });

  it('a persistent TPM: creates the backend storage claim (vmStateStorageClass, RWX on shared storage, owned by a VMI without VM) and the launcher Pod mounts it as vm-state', async () => {
    const sc = { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'shared' }, provisioner: 'kubevirt-ts.io/local-path', parameters: { volumeType: 'shared' } };
    expect((await api.call('POST', '/apis/storage.k8s.io/v1/storageclasses', sc)).status).toBe(201);
    vmStateStorageClass = 'shared';
    const body = newVMI('tpm');
    (body.spec.domain.devices as Record<string, unknown>).tpm = { persistent: true };
    // the informer must have seen the class before the claim is rendered
    await waitFor(() => controller.storageClasses.get('shared'), 5000, 'storage class in the cache');
    const created = await api.call('POST', vmis, body);
    expect(created.status).toBe(201);
    const pvc = await waitFor(async () => { const r = await api.call('GET', `/api/v1/namespaces/${NS}/persistentvolumeclaims/persistent-state-for-tpm`); return r.status === 200 ? r.body : undefined; }, 5000, 'backend storage claim');
    expect(pvc.spec).toMatchObject({ storageClassName: 'shared', accessModes: ['ReadWriteMany'], volumeMode: 'Filesystem', resources: { requests: { storage: '10Mi' } } });
    expect(pvc.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'VirtualMachineInstance', name: 'tpm', uid: created.body.metadata.uid })]);
    const pod = await waitFor(async () => (await launcherPods(created.body.metadata.uid))[0] as { spec: { volumes: object[] } } | undefined, 5000, 'launcher pod');
    expect(pod!.spec.volumes).toContainEqual({ name: 'vm-state', persistentVolumeClaim: { claimName: 'persistent-state-for-tpm' } });
    vmStateStorageClass = undefined;
  });

  it('refuses an image that is not local with imagePullPolicy Never (ErrImageNeverPull) and creates no Pod', async () => {
    const body = newVMI('ghost', 'foo:v1');
    (body.spec.volumes[0].containerDisk as Record<string, string>).imagePullPolicy = 'Never';
    const created = await api.call('POST', vmis, body);
    const vmi = await waitFor(async () => { const v = await getVMI('ghost'); return cond(v, 'Synchronized') ? v : undefined; }, 5000, 'Synchronized');
    expect(cond(vmi, 'Synchronized')).toMatchObject({ status: 'False', reason: 'ErrImageNeverPull', message: 'Container image "foo:v1" is not present with pull policy of Never' });
    expect(vmi.status.phase).toBe('Pending');
    expect(await launcherPods(created.body.metadata.uid)).toHaveLength(0);
  });

  it('creates the Pod for a registry image and shows the kubelet\'s pull failure on the VMI', async () => {
    const image = '127.0.0.1:1/containerdisks/missing:v1';
    const created = await api.call('POST', vmis, newVMI('pullme', image));
    const [pod] = await waitFor(async () => { const p = await launcherPods(created.body.metadata.uid); return p.length ? p : undefined; }, 5000, 'pod') as PodView[];
    expect(JSON.parse(pod.metadata.annotations['kubevirt-ts.io/container-disks'])).toEqual([{ image }]);
    const message = `Back-off pulling image "${image}": ErrImagePull: failed to pull image "${image}": manifest unknown: manifest unknown`;
    await api.call('PATCH', `/api/v1/namespaces/${NS}/pods/${pod.metadata.name}/status`, { status: { phase: 'Pending', containerStatuses: [
      { name: 'compute', image: pod.spec.containers[0].image, imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff', message } } },
    ] } }, { contentType: 'application/merge-patch+json' });
    const vmi = await waitFor(async () => { const v = await getVMI('pullme'); return cond(v, 'Synchronized') ? v : undefined; }, 5000, 'Synchronized');
    expect(cond(vmi, 'Synchronized')).toMatchObject({ status: 'False', reason: 'ImagePullBackOff', message });
  });

  it('copies PodScheduled=False from an unschedulable Pod', async () => {
    const created = await api.call('POST', vmis, newVMI('huge'));
    const [pod] = await waitFor(async () => { const p = await launcherPods(created.body.metadata.uid); return p.length ? p : undefined; }, 5000, 'pod') as PodView[];
    const message = '0/2 nodes are available: 2 Insufficient memory.';
    await api.call('PATCH', `/api/v1/namespaces/${NS}/pods/${pod.metadata.name}/status`,
      { status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }] } }, { contentType: 'application/merge-patch+json' });
    const vmi = await waitFor(async () => { const v = await getVMI('huge'); return cond(v, 'PodScheduled') ? v : undefined; }, 5000, 'PodScheduled');
    expect(cond(vmi, 'PodScheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable', message });
  });

  it('fails the VMI when its Pod fails before hand-over', async () => {
    const created = await api.call('POST', vmis, newVMI('crashy'));
    const [pod] = await waitFor(async () => { const p = await launcherPods(created.body.metadata.uid); return p.length ? p : undefined; }, 5000, 'pod') as PodView[];
    await api.call('PATCH', `/api/v1/namespaces/${NS}/pods/${pod.metadata.name}/status`, { status: {
      phase: 'Failed', containerStatuses: [{ name: 'compute', ready: false, restartCount: 0, image: 'x', imageID: '', state: { terminated: { exitCode: 1, reason: 'Error', message: 'launcher crashed' } } }],
    } }, { contentType: 'application/merge-patch+json' });
    const vmi = await waitFor(async () => { const v = await getVMI('crashy'); return v.status?.phase === 'Failed' ? v : undefined; }, 5000, 'Failed');
    expect(vmi.status.reason).toBe('Error');
  });
});
