/**
 * The VirtualMachineRestore admission webhook as a user meets it: the real embedded API server
 * calls virt-api's validator on create and update of restores, and a refusal is a 422 with
 * KubeVirt's message and cause (no snapshot controller runs: the snapshot's status is written here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type CallResult, type TestServer } from '../apiserver/testing/test-server';
import { writeAdminKubeconfig } from '../apiserver/testing/admin-kubeconfig';
import { makeKubeClients } from '../kube/clients';
import { EventRecorder } from '../kube/events';
import { loadKubeConfig } from '../kube/kubeconfig';
import { CloneController } from '../virt-controller/clone/clone-controller';
import { startVirtApi, type VirtApi } from './virt-api-server';

let api: TestServer;
let virtApi: VirtApi;
const abort = new AbortController();
const NS = '/namespaces/default';
const VMS = `/apis/kubevirt.io/v1${NS}/virtualmachines`;
const SNAPS = `/apis/snapshot.kubevirt.io/v1beta1${NS}/virtualmachinesnapshots`;
const RESTORES = `/apis/snapshot.kubevirt.io/v1beta1${NS}/virtualmachinerestores`;
const MERGE = { contentType: 'application/merge-patch+json' };

const target = { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: 'vm1' };
const restore = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'snapshot.kubevirt.io/v1beta1', kind: 'VirtualMachineRestore', metadata: { name },
  spec: { target, virtualMachineSnapshotName: 'snap', ...spec },
});

beforeAll(async () => {
  api = await startTestServer();
  const kubeconfig = writeAdminKubeconfig(api);
  virtApi = await startVirtApi({ kubeconfig, dataDir: api.dataDir });
  const vm = await api.call('POST', VMS, {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'vm1' },
    spec: { runStrategy: 'Halted', template: { spec: { domain: { memory: { guest: '128Mi' }, devices: {} } } } },
  });
  expect(vm.status).toBe(201);
  expect((await api.call('POST', SNAPS, { apiVersion: 'snapshot.kubevirt.io/v1beta1', kind: 'VirtualMachineSnapshot', metadata: { name: 'snap' }, spec: { source: target } })).status).toBe(201);
  const status = { phase: 'Succeeded', readyToUse: true, sourceUID: vm.body.metadata.uid, virtualMachineSnapshotContentName: 'content' };
  expect((await api.call('PATCH', `${SNAPS}/snap/status`, { status }, MERGE)).status).toBe(200);
  const content = { apiVersion: 'snapshot.kubevirt.io/v1beta1', kind: 'VirtualMachineSnapshotContent', metadata: { name: 'content' }, spec: { virtualMachineSnapshotName: 'snap', source: { virtualMachine: { metadata: { name: 'vm1' }, spec: vm.body.spec } } } };
  expect((await api.call('POST', `/apis/snapshot.kubevirt.io/v1beta1${NS}/virtualmachinesnapshotcontents`, content)).status).toBe(201);
  const clients = makeKubeClients(loadKubeConfig(kubeconfig));
  void new CloneController({ clients, recorder: new EventRecorder(clients.core, { component: 'test' }) }).run(abort.signal);
}, 60_000);

afterAll(async () => {
  abort.abort();
  await virtApi?.close();
  await api?.close();
});

const refusal = (res: CallResult) => ({ status: res.status, message: res.body?.message as string, causes: res.body?.details?.causes as { field: string }[] | undefined });

describe('VirtualMachineRestore admission', () => {
  it('refuses a target that is not a kubevirt.io VirtualMachine, a missing snapshot and a patch outside /spec/ with 422 and KubeVirt\'s words', async () => {
    const kind = refusal(await api.call('POST', RESTORES, restore('bad-kind', { target: { ...target, kind: 'VirtualMachineInstance' } })));
    expect(kind).toMatchObject({ status: 422, causes: [expect.objectContaining({ field: 'spec.target.kind', message: 'invalid kind' })] });
    expect(kind.message).toContain('invalid kind');
    const snap = refusal(await api.call('POST', RESTORES, restore('no-snap', { virtualMachineSnapshotName: 'nope' })));
    expect(snap).toMatchObject({ status: 422, causes: [expect.objectContaining({ field: 'spec.virtualMachineSnapshotName' })] });
    expect(snap.message).toContain('VirtualMachineSnapshot "nope" does not exist');
    const patch = refusal(await api.call('POST', RESTORES, restore('bad-patch', { patches: ['{"op":"replace","path":"/metadata/name","value":"x"}'] })));
    expect(patch.status).toBe(422);
    expect(patch.message).toContain('patching is valid only for elements under /spec/ only: "path": "/metadata/name"');
    for (const name of ['bad-kind', 'no-snap', 'bad-patch']) expect((await api.call('GET', `${RESTORES}/${name}`)).status).toBe(404);
  });

  it('admits one restore per target at a time, and keeps its spec as created', async () => {
    expect((await api.call('POST', RESTORES, restore('r1', { targetReadinessPolicy: 'WaitEventually' }))).status).toBe(201);
    const second = refusal(await api.call('POST', RESTORES, restore('r2')));
    expect(second.status).toBe(422);
    expect(second.message).toContain('VirtualMachineRestore "r1" in progress');

    const changed = refusal(await api.call('PATCH', `${RESTORES}/r1`, { spec: { targetReadinessPolicy: 'StopTarget' } }, MERGE));
    expect(changed.status).toBe(422);
    expect(changed.message).toContain('spec in immutable after creation');
    expect((await api.call('PATCH', `${RESTORES}/r1`, { metadata: { labels: { team: 'a' } } }, MERGE)).status).toBe(200);
    expect((await api.call('GET', `${RESTORES}/r1`)).body.spec.targetReadinessPolicy).toBe('WaitEventually');

    // once r1 is complete the target is free again
    expect((await api.call('PATCH', `${RESTORES}/r1/status`, { status: { complete: true } }, MERGE)).status).toBe(200);
    expect((await api.call('POST', RESTORES, restore('r2'))).status).toBe(201);
  });

  it('a clone whose patches restore admission refuses fails with the reason instead of retrying', async () => {
    const CLONES = `/apis/clone.kubevirt.io/v1beta1${NS}/virtualmachineclones`;
    const clone = {
      apiVersion: 'clone.kubevirt.io/v1beta1', kind: 'VirtualMachineClone', metadata: { name: 'c1' },
      spec: { source: { apiGroup: 'snapshot.kubevirt.io', kind: 'VirtualMachineSnapshot', name: 'snap' }, target: { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: 'vm-copy' }, patches: ['{"op":"add","path":"/status/x","value":1}'] },
    };
    expect((await api.call('POST', CLONES, clone)).status).toBe(201);
    const failed = await waitFor(async () => { const c = (await api.call('GET', `${CLONES}/c1`)).body; return c.status?.phase === 'Failed' && c; }, 15_000, 'clone Failed');
    expect(failed.status.conditions[0].message).toContain('patching is valid only for elements under /spec/ only: "path": "/status/x"');
  });
});
