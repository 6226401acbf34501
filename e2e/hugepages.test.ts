/**
 * Hugepages that really happen, on a 1-node `kv up` cluster (KV_POD_NETWORK=0) with 64 2Mi pages
 * reserved on the host for the test (vm.nr_hugepages, restored after): the Node reports them as
 * hugepages-2Mi; a VMI asking for more stays Pending with kube's "Insufficient hugepages-2Mi"; a
 * 128Mi guest runs with its RAM in those pages (HugePages_Free drops by 64 while it runs and comes
 * back once it is gone).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callRest, until, VMIS } from './support/rest';
import { NS, readVMI } from './support/vm-fixtures';

const BOOT_MS = 120_000;
const PAGES = 64;
const NR_HUGEPAGES = '/proc/sys/vm/nr_hugepages';
const root = process.getuid?.() === 0;
let before = '0';
let c: LifecycleCluster;

const freePages = () => Number(/^HugePages_Free:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]);
const hugeVMI = (name: string, guest: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: NS },
  spec: {
    domain: { memory: { guest, hugepages: { pageSize: '2Mi' } }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } },
    volumes: [{ name: 'root', containerDisk: { image: 'demo' } }],
  },
});

beforeAll(async () => {
  if (!root) return;
  before = readFileSync(NR_HUGEPAGES, 'utf8').trim();
  writeFileSync(NR_HUGEPAGES, String(Number(before) + PAGES));
  process.env.KV_POD_NETWORK = '0';
  c = await startLifecycleCluster({ nodes: 1 });
});
afterAll(async () => {
  await c?.stop();
  delete process.env.KV_POD_NETWORK;
  if (root) writeFileSync(NR_HUGEPAGES, before);
});

describe.skipIf(!root)('hugepages', () => {
  it('the Node reports the host\'s 2Mi pages as capacity and allocatable', async () => {
    const node = (await callRest(c.admin, 'GET', '/api/v1/nodes')).body.items[0];
    expect(node.status.capacity['hugepages-2Mi']).toBe(`${PAGES * 2048}Ki`);
    expect(node.status.allocatable['hugepages-2Mi']).toBe(`${PAGES * 2048}Ki`);
  });

  it('a VMI asking for more hugepages than the node has stays Pending: Insufficient hugepages-2Mi', async () => {
    expect((await callRest(c.admin, 'POST', VMIS(NS), hugeVMI('too-big', '256Mi'))).status).toBe(201);
    const cond = await until('VMI PodScheduled=False Unschedulable', async () => {
      const vmi = await readVMI(c.admin, 'too-big');
      return vmi?.status?.conditions?.find((x: { type: string; reason?: string }) => x.type === 'PodScheduled' && x.reason === 'Unschedulable');
    }, 60_000);
    expect(cond.message).toBe('0/1 nodes are available: 1 Insufficient hugepages-2Mi.');
    expect((await readVMI(c.admin, 'too-big')).status.phase).toBe('Scheduling');
    await callRest(c.admin, 'DELETE', `${VMIS(NS)}/too-big`);
  });

  it('a 128Mi guest runs in 64 hugepages; they are free again once it is deleted', async () => {
    const free = freePages();
    expect(free).toBe(PAGES);
    expect((await callRest(c.admin, 'POST', VMIS(NS), hugeVMI('huge', '128Mi'))).status).toBe(201);
    const running = await until('VMI Running', async () => { const v = await readVMI(c.admin, 'huge'); return v?.status?.phase === 'Running' && v; }, BOOT_MS);
    expect(freePages()).toBe(free - 64);
    // QEMU runs as 107 here too: the hugetlbfs its namespace mounts is 107's (no QEMURunsAsRoot condition)
    expect(running.status?.conditions?.map((cond: { type: string }) => cond.type) ?? []).not.toContain('QEMURunsAsRoot');
    await callRest(c.admin, 'DELETE', `${VMIS(NS)}/huge`);
    await until('VMI gone', async () => (await readVMI(c.admin, 'huge')) === undefined, 60_000);
    await until('hugepages free again', async () => freePages() === free, 30_000);
  });

  it('the Node follows a change of vm.nr_hugepages on the host (next heartbeat)', async () => {
    writeFileSync(NR_HUGEPAGES, String(Number(before) + 2 * PAGES));
    await until('hugepages-2Mi capacity doubled', async () => {
      const node = (await callRest(c.admin, 'GET', '/api/v1/nodes')).body.items[0];
      return node.status.capacity['hugepages-2Mi'] === `${2 * PAGES * 2048}Ki`;
    }, 30_000);
  });
});
