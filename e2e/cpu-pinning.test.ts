/**
 * Dedicated CPUs that really happen, on a 1-node `kv up` cluster (KV_POD_NETWORK=0) on a host with
 * 2 CPUs or more: the Node carries cpumanager=true, a 1-vCPU VMI with dedicatedCpuPlacement gets a
 * CPU of its own from the kubelet's static CPU manager (recorded in cpu_manager_state, never the
 * reserved CPU 0), QEMU's vCPU thread runs on that CPU alone (/proc/<tid>/status), and the CPU is
 * given back once the VMI is gone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callRest, until, VMIS } from './support/rest';
import { NS, readVMI } from './support/vm-fixtures';

const BOOT_MS = 120_000;
const enough = availableParallelism() >= 2 && process.getuid?.() === 0;
let c: LifecycleCluster;

const read = (path: string) => { try { return readFileSync(path, 'utf8'); } catch { return ''; } };
/** The QEMU of a VMI (its -name guest=<ns>_<name>) by its command line. */
function qemuPid(name: string): number | undefined {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    const argv = read(`/proc/${pid}/cmdline`).split('\0');
    if (argv.some((a) => a.startsWith('qemu-system')) && argv.includes(`guest=${NS}_${name},debug-threads=on`)) return Number(pid);
  }
  return undefined;
}
/** QEMU's vCPU threads (named "CPU <n>/KVM" or "CPU <n>/TCG" under debug-threads=on) and their allowed CPUs. */
function vcpuAffinity(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`)
    .filter((tid) => /^CPU \d+\//.test(read(`/proc/${pid}/task/${tid}/comm`).trim()))
    .map((tid) => /^Cpus_allowed_list:\s*(\S+)/m.exec(read(`/proc/${pid}/task/${tid}/status`))?.[1] ?? '?');
}
const stateEntries = (): Record<string, string> => JSON.parse(read(join(c.cluster.dataDir, 'nodes', 'cpu_manager_state')) || '{"entries":{}}').entries;

beforeAll(async () => {
  if (!enough) return;
  process.env.KV_POD_NETWORK = '0';
  c = await startLifecycleCluster({ nodes: 1 });
});
afterAll(async () => {
  await c?.stop();
  delete process.env.KV_POD_NETWORK;
});

describe.skipIf(!enough)('dedicatedCpuPlacement', () => {
  it('the Node says its static CPU manager is on (cpumanager=true)', async () => {
    const node = (await callRest(c.admin, 'GET', '/api/v1/nodes')).body.items[0];
    expect(node.metadata.labels.cpumanager).toBe('true');
  });

  it('a 1-vCPU VMI\'s vCPU thread runs on an exclusive CPU; the CPU is free again after', async () => {
    const vmi = {
      apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'pinned', namespace: NS },
      spec: {
        domain: { cpu: { cores: 1, dedicatedCpuPlacement: true }, memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } },
        volumes: [{ name: 'root', containerDisk: { image: 'demo' } }],
      },
    };
    expect((await callRest(c.admin, 'POST', VMIS(NS), vmi)).status).toBe(201);
    await until('VMI Running', async () => (await readVMI(c.admin, 'pinned'))?.status?.phase === 'Running', BOOT_MS);
    const entries = Object.values(stateEntries());
    expect(entries).toHaveLength(1);
    const cpu = entries[0];
    expect(cpu).toMatch(/^\d+$/);
    expect(cpu).not.toBe('0'); // the reserved CPU stays with everything else
    const pid = await until('QEMU found', () => qemuPid('pinned'), 10_000);
    expect(vcpuAffinity(pid)).toEqual([cpu]);

    await callRest(c.admin, 'DELETE', `${VMIS(NS)}/pinned`);
    await until('VMI gone', async () => (await readVMI(c.admin, 'pinned')) === undefined, 60_000);
    await until('the CPU is back in the shared pool', () => Object.keys(stateEntries()).length === 0, 30_000);
  });
});
