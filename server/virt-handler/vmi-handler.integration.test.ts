/**
 * virt-handler against a real (embedded) API server and a scripted launcher in the pod dir the
 * kubelet would have made: hand-over to Running, restart without disturbing the guest, crash →
 * Failed, deletion → graceful shutdown, endpoint advertised on the Node.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from '../apiserver/testing/test-server';
import { makeKubeConfig } from '../kube/kubeconfig';
import { startHandler } from './main';
import { FakeLauncher } from './testing/fake-launcher';
import { Annotation } from '../../lib/kubevirt/labels';
import type { VirtualMachineInstance } from '../../lib/kubevirt';

const NODE = 'node-1';
const NS = 'default';
const vmis = `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances`;
let api: TestServer;
let handler: Awaited<ReturnType<typeof startHandler>>;
const launchers: FakeLauncher[] = [];

const startMyHandler = () => startHandler({ node: NODE, dataDir: api.dataDir, kc: makeKubeConfig({ server: api.srv.url, token: api.srv.adminToken, caPem: api.srv.caPem }) });
const getVMI = async (name: string) => (await api.call('GET', `${vmis}/${name}`)).body;
const cond = (vmi: VirtualMachineInstance, type: string) => vmi.status?.conditions?.find((c) => c.type === type);

/** What the controller and kubelet would have done: a Scheduled VMI on NODE with a live launcher. */
async function scheduledVMI(name: string): Promise<FakeLauncher> {
  const podUID = `pod-${name}`;
  const created = await api.call('POST', vmis, {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance',
    metadata: { name, namespace: NS, labels: { 'kubevirt.io/nodeName': NODE }, finalizers: ['kubevirt.io/foregroundDeleteVirtualMachine'] },
    spec: { domain: { devices: { interfaces: [{ name: 'default', masquerade: {} }] } }, networks: [{ name: 'default', pod: {} }], terminationGracePeriodSeconds: 7 },
  });
  expect(created.status).toBe(201);
  const status = { phase: 'Scheduled', nodeName: NODE, activePods: { [podUID]: NODE } };
  expect((await api.call('PUT', `${vmis}/${name}/status`, { ...created.body, status })).status).toBe(200);
  const launcher = new FakeLauncher(join(api.dataDir, 'nodes', NODE, 'pods', podUID));
  launcher.domain = { ...launcher.domain, vmiUID: created.body.metadata.uid, state: 'starting', interfaces: [{ name: 'default', mac: '52:54:00:00:00:01', ipAddress: '10.0.2.15' }] };
  launchers.push(launcher);
  return launcher.start();
}

beforeAll(async () => {
  api = await startTestServer();
  await api.call('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: NODE } });
  handler = await startMyHandler();
});
afterAll(async () => {
  await handler.stop();
  await Promise.all(launchers.map((l) => l.stop()));
  await api.close();
});

describe('virt-handler', () => {
  it('starts the domain and reports the VMI Running with its details', async () => {
    const launcher = await scheduledVMI('alpha');
    const vmi = await waitFor(async () => { const v = await getVMI('alpha'); return v.status?.phase === 'Running' ? v : undefined; }, 5000, 'Running');
    expect(launcher.commands).toContain('sync');
    expect(cond(vmi, 'LiveMigratable')?.status).toBe('True');
    expect(cond(vmi, 'SoftwareEmulation')).toMatchObject({ status: 'True', reason: 'UseEmulation' });
    expect(vmi.status.machine).toEqual({ type: 'pc-q35-7.2' });
    expect(vmi.status.interfaces[0]).toMatchObject({ name: 'default', ipAddress: '10.0.2.15', mac: '52:54:00:00:00:01' });
  });

  it('advertises its endpoint on the Node', async () => {
    const node = await waitFor(async () => { const n = (await api.call('GET', `/api/v1/nodes/${NODE}`)).body; return n.metadata.annotations?.[Annotation.HandlerEndpoint] ? n : undefined; }, 5000, 'annotation');
    expect(node.metadata.annotations[Annotation.HandlerEndpoint]).toBe(handler.url);
  });

  it('survives its own restart: the VMI stays Running', async () => {
    await handler.stop();
    handler = await startMyHandler();
    const launcher = launchers[0];
    const syncs = () => launcher.commands.filter((c) => c === 'sync').length;
    await waitFor(() => syncs() >= 2, 5000, 're-adoption');
    expect((await getVMI('alpha')).status.phase).toBe('Running');
  });

  it('fails the VMI with a reason when QEMU dies', async () => {
    launchers[0].push({ ...launchers[0].domain, state: 'shutoff', reason: 'Crashed', message: 'QEMU exited: killed by signal 9' });
    const vmi = await waitFor(async () => { const v = await getVMI('alpha'); return v.status?.phase === 'Failed' ? v : undefined; }, 5000, 'Failed');
    expect(vmi.status.reason).toBe('Crashed');
  });

  it('asks the launcher for a graceful shutdown when the VMI is deleted', async () => {
    const launcher = await scheduledVMI('beta');
    await waitFor(async () => (await getVMI('beta')).status?.phase === 'Running', 5000, 'Running');
    await api.call('DELETE', `${vmis}/beta`);
    await waitFor(() => launcher.commands.includes('shutdown'), 5000, 'shutdown');
    const vmi = await waitFor(async () => { const v = await getVMI('beta'); return v.status?.phase === 'Succeeded' ? v : undefined; }, 5000, 'Succeeded');
    expect(vmi.metadata.deletionTimestamp).toBeDefined();
  });
});
