/**
 * Dedicated CPUs that really happen, on a 1-node `kv up` cluster (KV_POD_NETWORK=0) on a host with
 * 2 CPUs or more: the Node carries cpumanager=true, a 1-vCPU VMI with dedicatedCpuPlacement gets a
 * CPU of its own from the kubelet's static CPU manager (recorded in cpu_manager_state, never the
 * reserved CPU 0), QEMU's vCPU thread runs on that CPU alone (/proc/<tid>/status) inside a cpuset
 * cgroup of that CPU, and the CPU and the cgroup are given back once the VMI is gone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
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
/** The cpuset cgroup dir a process is in (v1 cpuset hierarchy, else the unified one). */
function cpusetDir(pid: number): string {
  const lines = read(`/proc/${pid}/cgroup`).split('\n');
  const v1 = lines.map((l) => /^\d+:([^:]*):(.*)$/.exec(l)).find((m) => m && m[1].split(',').includes('cpuset'));
  if (v1) return join('/sys/fs/cgroup/cpuset', v1[2]);
  return join('/sys/fs/cgroup', lines.find((l) => l.startsWith('0::'))!.slice(3));
}
let nodeCpusetDir = '';
const stateEntries = (): Record<string, string> => JSON.parse(read(join(c.cluster.dataDir, 'nodes', 'cpu_manager_state')) || '{"entries":{}}').entries;

beforeAll(async () => {
  if (!enough) return;
  process.env.KV_POD_NETWORK = '0';
  c = await startLifecycleCluster({ nodes: 1 });
});
afterAll(async () => {
  await c?.stop();
  delete process.env.KV_POD_NETWORK;
  // kv up's shutdown removes the node's cpuset cgroup with the Pods'
  if (nodeCpusetDir) expect(existsSync(nodeCpusetDir)).toBe(false);
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
    // the Pod's cpuset cgroup holds QEMU to that CPU too (a process cannot widen it)
    const podCpuset = cpusetDir(pid);
    expect(podCpuset).toMatch(/\/pod[0-9a-f-]+$/);
    expect(read(join(podCpuset, 'cpuset.cpus')).trim()).toBe(cpu);
    nodeCpusetDir = dirname(podCpuset);

    await callRest(c.admin, 'DELETE', `${VMIS(NS)}/pinned`);
    await until('VMI gone', async () => (await readVMI(c.admin, 'pinned')) === undefined, 60_000);
    await until('the CPU is back in the shared pool', () => Object.keys(stateEntries()).length === 0, 30_000);
    await until('the Pod\'s cpuset cgroup is gone', () => !existsSync(podCpuset), 30_000);
  });
});
