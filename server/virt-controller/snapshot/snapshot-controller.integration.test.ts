/**
 * The snapshot controller against the real embedded API server, on a claim whose disk is a file
 * in a temporary directory (no nodes, no guests: the VMI is an object this test creates and
 * deletes). What a user would see: a snapshot is never taken twice (what the guest wrote after it
 * was reported ready stays out of it, even when the controller's cache lags its own write), and a
 * restore onto an existing VM follows its targetReadinessPolicy and writes the disk only once the
 * VMI is gone.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from '../../apiserver/testing/test-server';
import { writeAdminKubeconfig } from '../../apiserver/testing/admin-kubeconfig';
import { makeKubeClients } from '../../kube/clients';
import { EventRecorder } from '../../kube/events';
import { loadKubeConfig } from '../../kube/kubeconfig';
import { SnapshotController } from './snapshot-controller';
import { STOP_TARGET_MESSAGE, TARGET_NOT_READY_FAILURE, WAIT_EVENTUALLY_MESSAGE } from './restore-readiness';
import { snapshotDir } from './volume-copy';

let api: TestServer;
let ctrl: SnapshotController;
let disk: string;
const abort = new AbortController();
const NS = 'default';
const VMS = `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines`;
const VMIS = `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances`;
const SNAP = (plural: string, name = '') => `/apis/snapshot.kubevirt.io/v1beta1/namespaces/${NS}/${plural}${name ? `/${name}` : ''}`;
const MERGE = { contentType: 'application/merge-patch+json' };

const vmi = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'vm1' }, spec: { domain: { devices: {} } } };
const restore = (name: string, targetReadinessPolicy?: string) => ({
  apiVersion: 'snapshot.kubevirt.io/v1beta1', kind: 'VirtualMachineRestore', metadata: { name },
  spec: { target: { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: 'vm1' }, virtualMachineSnapshotName: 'snap', ...(targetReadinessPolicy ? { targetReadinessPolicy } : {}) },
});
const getRestore = async (name: string) => (await api.call('GET', SNAP('virtualmachinerestores', name))).body;
const readyMessage = (r: { status?: { conditions?: { type: string; message?: string }[] } }) => r.status?.conditions?.find((c) => c.type === 'Ready')?.message;

beforeAll(async () => {
  api = await startTestServer();
  const kubeconfig = writeAdminKubeconfig(api);
  const clients = makeKubeClients(loadKubeConfig(kubeconfig));
  const volume = join(api.dataDir, 'volumes', 'pv1');
  mkdirSync(volume, { recursive: true });
  disk = join(volume, 'disk.img');
  writeFileSync(disk, 'before');
  await clients.core.createPersistentVolume({ body: { metadata: { name: 'pv1' }, spec: { capacity: { storage: '1Mi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: volume } } } });
  await clients.core.createNamespacedPersistentVolumeClaim({ namespace: NS, body: { metadata: { name: 'files' }, spec: { volumeName: 'pv1', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Mi' } } } } });
  expect((await api.call('POST', VMS, {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'vm1' },
    spec: { runStrategy: 'Halted', template: { spec: { domain: { memory: { guest: '128Mi' }, devices: { disks: [{ name: 'files', disk: {} }] } }, volumes: [{ name: 'files', persistentVolumeClaim: { claimName: 'files' } }] } } },
  })).status).toBe(201);
  ctrl = new SnapshotController({ clients, recorder: new EventRecorder(clients.core, { component: 'test' }), dataDir: api.dataDir });
  void ctrl.run(abort.signal);
}, 60_000);

afterAll(async () => {
  abort.abort();
  await api?.close();
});

describe('snapshot controller', () => {
  it('takes a snapshot once: a lagging cache that still shows it InProgress does not copy the disk again', async () => {
    expect((await api.call('POST', SNAP('virtualmachinesnapshots'), { apiVersion: 'snapshot.kubevirt.io/v1beta1', kind: 'VirtualMachineSnapshot', metadata: { name: 'snap' }, spec: { source: { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: 'vm1' } } })).status).toBe(201);
    const done = await waitFor(async () => {
      const s = (await api.call('GET', SNAP('virtualmachinesnapshots', 'snap'))).body;
      return s.status?.readyToUse === true && s;
    }, 10_000, 'snapshot ready');
    const copy = join(snapshotDir(api.dataDir, NS, done.status.virtualMachineSnapshotContentName), 'files.img');
    expect(readFileSync(copy, 'utf8')).toBe('before');

    writeFileSync(disk, 'after'); // the guest writes on after the snapshot was reported ready
    const stale = { ...done, status: { ...done.status, phase: 'InProgress', readyToUse: false } };
    const get = ctrl.snapshots.get.bind(ctrl.snapshots);
    ctrl.snapshots.get = (key: string) => (key === `${NS}/snap` ? stale : get(key));
    try {
      await ctrl.execute(`s:${NS}/snap`);
    } finally {
      ctrl.snapshots.get = get;
    }
    expect(readFileSync(copy, 'utf8')).toBe('before');
  });

  it('WaitEventually: waits while a VMI exists, then restores the disk once it is gone', async () => {
    expect((await api.call('POST', VMIS, vmi)).status).toBe(201);
    expect((await api.call('POST', SNAP('virtualmachinerestores'), restore('r1', 'WaitEventually'))).status).toBe(201);
    await waitFor(async () => readyMessage(await getRestore('r1')) === WAIT_EVENTUALLY_MESSAGE, 10_000, 'r1 waiting');
    expect(readFileSync(disk, 'utf8')).toBe('after');
    expect((await api.call('DELETE', `${VMIS}/vm1`)).status).toBe(200);
    const r1 = await waitFor(async () => { const r = await getRestore('r1'); return r.status?.complete === true && r; }, 10_000, 'r1 complete');
    expect(r1.status.restores).toEqual([expect.objectContaining({ volumeName: 'files', persistentVolumeClaim: 'files' })]);
    expect(readFileSync(disk, 'utf8')).toBe('before');
    expect((await api.call('GET', `${VMS}/vm1`)).body.status?.restoreInProgress).toBeUndefined();
  });

  it('FailImmediate fails at once with a Failure condition; StopTarget stops the VM and restores once its VMI is gone', async () => {
    writeFileSync(disk, 'after');
    expect((await api.call('POST', VMIS, vmi)).status).toBe(201);
    expect((await api.call('POST', SNAP('virtualmachinerestores'), restore('r2', 'FailImmediate'))).status).toBe(201);
    const r2 = await waitFor(async () => { const r = await getRestore('r2'); return r.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Failure' && c.status === 'True') && r; }, 10_000, 'r2 failed');
    expect(readyMessage(r2)).toBe(TARGET_NOT_READY_FAILURE);
    expect(r2.status.complete).toBe(false);

    expect((await api.call('PATCH', `${VMS}/vm1`, { spec: { runStrategy: 'Always' } }, MERGE)).status).toBe(200);
    expect((await api.call('POST', SNAP('virtualmachinerestores'), restore('r3', 'StopTarget'))).status).toBe(201);
    await waitFor(async () => (await api.call('GET', `${VMS}/vm1`)).body.spec.runStrategy === 'Halted', 10_000, 'VM stopped by the restore');
    expect(readyMessage(await getRestore('r3'))).toBe(STOP_TARGET_MESSAGE);
    expect(readFileSync(disk, 'utf8')).toBe('after');
    expect((await api.call('DELETE', `${VMIS}/vm1`)).status).toBe(200);
    await waitFor(async () => (await getRestore('r3')).status?.complete === true, 10_000, 'r3 complete');
    expect(readFileSync(disk, 'utf8')).toBe('before');
    // the failed one stays failed
    expect((await getRestore('r2')).status.complete).toBe(false);
  });

  it('a restore to a new VM names its claims by volumeRestorePolicy and gives them to the VM (volumeOwnershipPolicy), and never takes over a claim it did not make', async () => {
    const toNew = (name: string, target: string, extra: Record<string, unknown>) => ({ ...restore(name), spec: { ...restore(name).spec, target: { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: target }, ...extra } });
    const CLAIMS = `/api/v1/namespaces/${NS}/persistentvolumeclaims`;
    expect((await api.call('POST', SNAP('virtualmachinerestores'), toNew('r4', 'vm2', { volumeRestorePolicy: 'PrefixTargetName' }))).status).toBe(201);
    const r4 = await waitFor(async () => { const r = await getRestore('r4'); return r.status?.complete === true && r; }, 10_000, 'r4 complete');
    expect(r4.status.restores).toEqual([expect.objectContaining({ volumeName: 'files', persistentVolumeClaim: 'vm2-files' })]);
    const vm2 = (await api.call('GET', `${VMS}/vm2`)).body;
    expect(vm2.spec.template.spec.volumes).toEqual([{ name: 'files', persistentVolumeClaim: { claimName: 'vm2-files' } }]);
    expect((await api.call('GET', `${CLAIMS}/vm2-files`)).body.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'VirtualMachine', name: 'vm2', uid: vm2.metadata.uid })]);

    expect((await api.call('POST', SNAP('virtualmachinerestores'), toNew('r5', 'vm3', { volumeOwnershipPolicy: 'None' }))).status).toBe(201);
    const r5 = await waitFor(async () => { const r = await getRestore('r5'); return r.status?.complete === true && r; }, 10_000, 'r5 complete');
    expect((await api.call('GET', `${CLAIMS}/${r5.status.restores[0].persistentVolumeClaim}`)).body.metadata.ownerReferences).toBeUndefined();

    // InPlace onto a new VM would reuse the source's claim "files": refused, the claim untouched
    expect((await api.call('POST', SNAP('virtualmachinerestores'), toNew('r6', 'vm4', { volumeRestorePolicy: 'InPlace' }))).status).toBe(201);
    await waitFor(async () => readyMessage(await getRestore('r6')) === 'PersistentVolumeClaim "files" already exists', 10_000, 'r6 refused');
    expect((await api.call('GET', `${VMS}/vm4`)).status).toBe(404);
    expect((await api.call('GET', `${CLAIMS}/files`)).body.metadata.ownerReferences).toBeUndefined();
  });
});
