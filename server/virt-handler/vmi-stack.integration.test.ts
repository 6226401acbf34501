/**
 * A VMI on a whole embedded cluster (`kv up`: API server, scheduler, 2 nodes with kubelet and
 * virt-handler, virt-controller) with real QEMU guests from the demo image.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../../e2e/harness';
import { makeKubeClients, type KubeClients } from '../kube/clients';
import { makeKubeConfig } from '../kube/kubeconfig';
import { dataPaths } from '../data-dir';
import { probeRFB } from './testing/rfb-probe';
import { findProcesses, handlerAccess, isAlive, openStream, qemuPidOf, readableAs, uidsOf, waitForSerial } from './testing/stack-helpers';
import { Annotation } from '../../lib/kubevirt/labels';
import type { VirtualMachineInstance } from '../../lib/kubevirt';

const NS = 'default';
let cluster: TestCluster;
let k: KubeClients;
const qemuPids: number[] = [];

const vmiSpec = (name: string, opts: { image?: string; memory?: string; grace?: number } = {}) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: NS },
  spec: {
    terminationGracePeriodSeconds: opts.grace ?? 5,
    domain: { memory: { guest: opts.memory ?? '256Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } },
    volumes: [{ name: 'root', containerDisk: { image: opts.image ?? 'demo' } }],
  },
});
const getVMI = async (name: string) => (await k.vmis.get(NS, name).catch(() => undefined)) as VirtualMachineInstance | undefined;
const cond = (vmi: VirtualMachineInstance | undefined, type: string) => vmi?.status?.conditions?.find((c) => c.type === type);

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function runningVMI(name: string, opts = {}): Promise<{ vmi: VirtualMachineInstance; node: string; podUID: string; qemuPid: number }> {
  await k.vmis.create(NS, vmiSpec(name, opts));
  const vmi = await until(`${name} Running`, async () => { const v = await getVMI(name); return v?.status?.phase === 'Running' && v; });
  const node = vmi.status!.nodeName!;
  const podUID = Object.keys(vmi.status!.activePods!)[0];
  const qemuPid = await until('qemu pid', async () => qemuPidOf(cluster.dataDir, node, podUID), 10_000);
  qemuPids.push(qemuPid);
  return { vmi, node, podUID, qemuPid };
}

async function handlerOf(node: string) {
  const n = await k.core.readNode({ name: node });
  return handlerAccess(cluster.dataDir, node, n.metadata!.annotations![Annotation.HandlerEndpoint]);
}

beforeAll(async () => {
  cluster = await startCluster({ nodes: 2, console: false });
  k = makeKubeClients(makeKubeConfig({ server: cluster.access.server, token: cluster.access.token, caPem: cluster.access.ca }));
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
  // after `kv up` stops, no guest is left behind
  expect(qemuPids.filter(isAlive)).toEqual([]);
}, 90_000);

describe('a VMI on kv up', () => {
  it('runs, shows a login prompt on serial and a non-blank VNC screen, then deletes cleanly', async () => {
    const { node, podUID, qemuPid } = await runningVMI('demo-1');
    expect(isAlive(qemuPid)).toBe(true);
    // QEMU dropped root (server/virt-launcher/qemu-user.ts) and cannot read the cluster's tokens in its own view
    expect(uidsOf(qemuPid)).toEqual([107, 107, 107, 107]);
    expect(readableAs(qemuPid, 107, join(cluster.dataDir, 'nodes', node, 'pods', podUID, 'qemu.log'))).toBe(true);
    expect(readableAs(qemuPid, 107, dataPaths(cluster.dataDir).tokens)).toBe(false);
    expect((await getVMI('demo-1'))?.status?.conditions?.some((c) => c.type === 'QEMURunsAsRoot')).toBe(false);
    const h = await handlerOf(node);

    const serial = await openStream(h, NS, 'demo-1', 'console');
    await waitForSerial(serial, 'login:', 60_000);
    serial.close();

    const vnc = await openStream(h, NS, 'demo-1', 'vnc');
    const rfb = await probeRFB(vnc);
    vnc.close();
    expect(rfb.version).toBe('RFB 003.008');
    expect(rfb.width).toBeGreaterThan(0);
    expect(rfb.distinctBytes).toBeGreaterThan(1);

    const t0 = Date.now();
    await k.vmis.delete(NS, 'demo-1');
    await until('VMI and pod gone', async () => !(await getVMI('demo-1'))
      && !(await k.core.listNamespacedPod({ namespace: NS, labelSelector: `kubevirt.io/created-by` })).items.some((p) => p.metadata?.uid === podUID), 30_000);
    expect(isAlive(qemuPid)).toBe(false);
    expect(Date.now() - t0).toBeLessThan((5 + 15) * 1000);
  }, 180_000);

  it('kill -9 of QEMU fails the VMI with a reason', async () => {
    const { qemuPid } = await runningVMI('demo-2');
    process.kill(qemuPid, 'SIGKILL');
    const vmi = await until('Failed', async () => { const v = await getVMI('demo-2'); return v?.status?.phase === 'Failed' && v; }, 30_000);
    expect(vmi.status!.reason).toBeTruthy();
  }, 120_000);

  it('the guest keeps running through kill -9 of virt-handler and the kubelet', async () => {
    const { node, qemuPid } = await runningVMI('demo-3');
    const before = await handlerOf(node);
    for (const component of [['handler', '--node', node], ['node', '--name', node]]) {
      const pids = findProcesses([...component, cluster.dataDir]);
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) process.kill(pid, 'SIGKILL');
      await until(`${component[0]} restarted`, async () => findProcesses([...component, cluster.dataDir]).some((p) => !pids.includes(p)), 30_000);
    }
    // kv up gives each node's handler a fixed port: the restarted handler serves the same endpoint
    const h = await until('the restarted handler answering', async () => {
      const a = await handlerOf(node).catch(() => undefined);
      return a && (await fetch(`${a.url}/healthz`).then((r) => r.ok).catch(() => false)) && a;
    }, 30_000);
    expect(h.url).toBe(before.url);
    const serial = await until('console after restart', async () => openStream(h, NS, 'demo-3', 'console').catch(() => undefined), 30_000);
    await waitForSerial(serial, 'login:', 30_000);
    serial.close();
    expect(isAlive(qemuPid)).toBe(true);
    expect((await getVMI('demo-3'))!.status!.phase).toBe('Running');
  }, 180_000);

  it('says why a VMI larger than any node cannot be scheduled', async () => {
    await k.vmis.create(NS, vmiSpec('huge', { memory: '4096Gi' }));
    const c = await until('PodScheduled', async () => cond(await getVMI('huge'), 'PodScheduled'), 30_000);
    expect(c).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    expect(c.message).toMatch(/Insufficient memory/);
  }, 60_000);

  it('says clearly that an image is unknown', async () => {
    await k.vmis.create(NS, vmiSpec('ghost', { image: 'foo' }));
    const c = await until('Synchronized', async () => cond(await getVMI('ghost'), 'Synchronized'), 30_000);
    // not in the store: the kubelet tries Docker Hub (docker.io/library/foo), which this machine cannot reach
    expect(c).toMatchObject({ status: 'False', reason: expect.stringMatching(/^(ErrImagePull|ImagePullBackOff)$/) });
    expect(c.message).toContain('failed to pull image "foo": failed to reach registry-1.docker.io');
  }, 60_000);
});
