/**
 * `kv up` runs the scheduler, virt-controller, network, storage and every node's kubelet and
 * virt-handler in one supervised `kv control-plane` process. Killing it (kill -9) must cost a
 * running guest nothing, and everything must converge once kv up has restarted it: a new VMI is
 * scheduled, started and reported Running; the old one is still Running and can be deleted (its
 * QEMU adopted by the restarted kubelet, not orphaned); SIGTERM reaches every hosted component (the
 * kubelets stop their Pods before the process exits); `kv up` stopping leaves no QEMU behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../../e2e/harness';
import { makeKubeClients, type KubeClients } from '../kube/clients';
import { makeKubeConfig } from '../kube/kubeconfig';
import { findProcesses, isAlive, qemuPidOf } from '../virt-handler/testing/stack-helpers';
import { until } from '../kube/testing/wait-for';

const NS = 'default';
let cluster: TestCluster;
let k: KubeClients;
const qemuPids: number[] = [];

const vmiSpec = (name: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: NS },
  spec: {
    terminationGracePeriodSeconds: 0,
    domain: { memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } },
    volumes: [{ name: 'root', containerDisk: { image: 'demo' } }],
  },
});

async function runningVMI(name: string): Promise<{ qemuPid: number }> {
  await k.vmis.create(NS, vmiSpec(name) as never);
  const vmi = await until(`${name} Running`, async () => { const v = await getVMI(name); return v.status?.phase === 'Running' && v; }, 90_000);
  const qemuPid = await until('qemu pid', async () => qemuPidOf(cluster.dataDir, vmi.status!.nodeName!, Object.keys(vmi.status!.activePods ?? {})[0]), 10_000);
  qemuPids.push(qemuPid);
  return { qemuPid };
}

interface VmiStatus { status?: { phase?: string; nodeName?: string; activePods?: Record<string, string> } }
const getVMI = async (name: string) => (await k.vmis.get(NS, name)) as VmiStatus;

const sharedPids = () => findProcesses(['control-plane', '--data-dir', cluster.dataDir]);

beforeAll(async () => {
  process.env.KV_POD_NETWORK = '0'; // host-wide tables and DNS address: this test needs neither
  cluster = await startCluster({ nodes: 2, console: false, timeoutMs: 180_000 });
  k = makeKubeClients(makeKubeConfig({ server: cluster.access.server, token: cluster.access.token, caPem: cluster.access.ca }));
}, 200_000);
afterAll(async () => {
  await cluster?.stop();
  delete process.env.KV_POD_NETWORK;
  // kv up stopped the shared process (its kubelets stop their Pods) and swept the rest: no guest left
  expect(qemuPids.filter(isAlive)).toEqual([]);
}, 90_000);

describe('kv up: the shared control-plane process', () => {
  it('hosts every controller and both nodes in one process (no process of their own)', () => {
    const [shared, ...more] = sharedPids();
    expect(more).toEqual([]);
    for (const parts of [['scheduler'], ['controller'], ['network'], ['storage'], ['node', '--name', 'node-1'], ['node', '--name', 'node-2'], ['handler', '--node', 'node-1'], ['handler', '--node', 'node-2']]) {
      expect(findProcesses([...parts, '--data-dir', cluster.dataDir]), parts.join(' ')).toEqual([shared]);
    }
  });

  it('after kill -9 it is restarted, a running guest survives, and a new VMI starts', async () => {
    const before = await runningVMI('before-kill');
    const [pid] = sharedPids();
    process.kill(pid, 'SIGKILL');
    const [restarted] = await until('the control-plane restarted', async () => { const p = sharedPids(); return p.length === 1 && p[0] !== pid && p; }, 30_000);
    expect(restarted).not.toBe(pid);
    expect(isAlive(before.qemuPid)).toBe(true);

    // scheduler, virt-controller, kubelet and handler all back: a new VMI goes all the way to Running
    await runningVMI('after-kill');
    expect((await getVMI('before-kill')).status?.phase).toBe('Running');

    // the restarted kubelet adopted the old guest: deleting its VMI stops its QEMU
    await k.vmis.delete(NS, 'before-kill');
    await until('the old guest stopped', async () => !isAlive(before.qemuPid), 30_000);
  }, 240_000);

  it('SIGTERM reaches every hosted component: the kubelets stop their Pods before the process exits', async () => {
    const guest = await runningVMI('graceful');
    const [pid] = sharedPids();
    process.kill(pid, 'SIGTERM');
    await until('the shared process gone', async () => !isAlive(pid), 30_000);
    // --stop-pods-on-exit, through the host's stop signal: the guest went before its kubelet's process did
    expect(isAlive(guest.qemuPid)).toBe(false);
    // and kv up, which did not ask for it, starts the shared process again
    await until('the control-plane restarted', async () => { const p = sharedPids(); return p.length === 1 && p[0] !== pid; }, 30_000);
  }, 180_000);
});
