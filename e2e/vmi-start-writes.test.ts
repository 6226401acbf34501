/**
 * What a VMI start costs the API server, counted on a whole embedded cluster (`kv up`, 1 node, the
 * real controller, handler, kubelet and launcher with QEMU started paused): writes per VMI by verb,
 * resource and writer, and 409 conflicts. Fails when a start costs more than the budget.
 */
import { cpSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VirtualMachineInstance } from '../lib/kubevirt';
import { startCluster, type TestCluster } from './harness';
import { diffWrites, formatWrites, isStartWrite, readWrites, shortUser, type WriteCount } from './support/api-writes';
import { callRest, subresource, until, VMIS } from './support/rest';
import { findProcesses } from '../server/virt-handler/testing/stack-helpers';

process.env.KV_POD_NETWORK = '0'; // nothing here needs the pod network, and it is host-wide

const NS = 'default';
const COUNT = 6;
/**
 * Writes per started VMI by KubeVirt's components (virt-controller, virt-handler) to VMIs and
 * launcher Pods: the Pod create, status Scheduling, the node label, status Scheduled (all
 * virt-controller), then Running with Ready (virt-handler, which owns Ready from Running on).
 * KubeVirt's own flow has the label inside the Scheduled update (its VMI has no status
 * subresource) and the controller following the guest into Ready: 5 too. Before this budget
 * existed: 8.7, with 1.2 conflicts; 6 until virt-handler wrote Ready with Running.
 */
const KUBEVIRT_WRITE_BUDGET = 5;
/**
 * every write of a start: the user's create, the above, the scheduler's binding and the kubelet's
 * one Pod status write (Running; the containerDisk is on the node, so no ContainerCreating write
 * comes before it). 10 until virt-handler wrote Ready and the kubelet checked present images in the sync.
 */
const START_WRITE_BUDGET = 8;
/** who writes what, per VMI (the embedded scheduler and kubelet write as admin): a write that comes back shows here by name */
const EXPECTED_PER_VMI = {
  'POST virtualmachineinstances admin': 1,
  'POST pods kubevirt-controller': 1,
  'PUT virtualmachineinstances/status kubevirt-controller': 2,
  'PATCH virtualmachineinstances kubevirt-controller': 1,
  'POST pods/binding admin': 1,
  'PATCH pods/status admin': 1,
  'PUT virtualmachineinstances/status kubevirt-handler': 1,
};
let cluster: TestCluster;

const vmi = (name: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: NS },
  spec: {
    startStrategy: 'Paused', terminationGracePeriodSeconds: 0,
    domain: { memory: { guest: '64Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } },
    volumes: [{ name: 'root', containerDisk: { image: 'demo' } }],
  },
});

beforeAll(async () => { cluster = await startCluster({ nodes: 1, console: false, timeoutMs: 180_000 }); }, 200_000);
afterAll(async () => {
  if (process.env.KV_WRITES_KEEP_LOGS) cpSync(cluster.dataDir, process.env.KV_WRITES_KEEP_LOGS, { recursive: true, filter: (p) => !p.includes('/images') && !p.includes('/nodes/') });
  await cluster?.stop();
}, 90_000);

describe('VMI start writes', () => {
  it(`${COUNT} paused VMIs start with at most ${KUBEVIRT_WRITE_BUDGET} KubeVirt writes (${START_WRITE_BUDGET} in all) each and no conflict`, async () => {
    const ep = { url: cluster.access.server, ca: cluster.access.ca, token: cluster.access.token };
    const before = await readWrites(cluster.access);
    await Promise.all(Array.from({ length: COUNT }, async (_, i) => {
      expect((await callRest(ep, 'POST', VMIS(NS), vmi(`w-${i}`))).status).toBe(201);
    }));
    const ready = (v: VirtualMachineInstance) => v.status?.phase === 'Running'
      && v.status.conditions?.some((c) => c.type === 'Paused' && c.status === 'True')
      && v.metadata.labels?.['kubevirt.io/nodeName'];
    await until('all Running and paused', async () => {
      const list = (await callRest(ep, 'GET', VMIS(NS))).body.items as VirtualMachineInstance[];
      return list.length === COUNT && list.every(ready);
    }, 120_000);
    // settle: the status writes that follow Running (Pod Ready, guest details) come within a second or two
    let last = -1;
    let writes: WriteCount[] = [];
    await until('writes settled', async () => {
      await new Promise((r) => setTimeout(r, 1500));
      writes = diffWrites(before, await readWrites(cluster.access)).filter(isStartWrite);
      const total = writes.reduce((a, w) => a + w.n, 0);
      const settled = total === last;
      last = total;
      return settled;
    }, 60_000);
    console.log(`writes per VMI (${COUNT} paused VMIs, 1 node):\n${formatWrites(writes, COUNT).join('\n')}`);
    const kubevirt = writes.filter((w) => /kubevirt-(controller|handler)$/.test(shortUser(w.user)));
    const perVMI = kubevirt.reduce((a, w) => a + w.n, 0) / COUNT;
    const conflicts = writes.filter((w) => w.code === '409');
    expect(conflicts).toEqual([]);
    expect(perVMI).toBeLessThanOrEqual(KUBEVIRT_WRITE_BUDGET);
    expect(writes.reduce((a, w) => a + w.n, 0) / COUNT).toBeLessThanOrEqual(START_WRITE_BUDGET);
    const byName = Object.fromEntries(writes.map((w) => [`${w.verb} ${w.resource} ${shortUser(w.user)}`, w.n / COUNT]));
    expect(byName).toEqual(EXPECTED_PER_VMI);
    // what users see is unchanged: Ready=False for the paused guest (written by virt-handler with Running), the full phase history
    const list = (await callRest(ep, 'GET', VMIS(NS))).body.items as VirtualMachineInstance[];
    for (const v of list) {
      expect(v.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'PausedStartStrategy' });
      expect(v.status?.phaseTransitionTimestamps?.map((t) => t.phase)).toEqual(['Pending', 'Scheduling', 'Scheduled', 'Running']);
    }
    await expectControllerMetrics();
    // the handler's readiness-gate write is not needed for a paused guest (the gate unset keeps the Pod unready)
    expect(writes.filter((w) => w.resource === 'pods/status' && shortUser(w.user) === 'kubevirt-handler')).toEqual([]);
  }, 300_000);

  it('an unpaused guest turns Ready once its launcher Pod is (virt-handler follows the Pod), and paused again turns it unready', async () => {
    const ep = { url: cluster.access.server, ca: cluster.access.ca, token: cluster.access.token };
    const readyOf = async () => ((await callRest(ep, 'GET', `${VMIS(NS)}/w-0`)).body as VirtualMachineInstance).status?.conditions?.find((c) => c.type === 'Ready');
    const before = await readWrites(cluster.access);
    expect((await callRest(ep, 'PUT', subresource(NS, 'virtualmachineinstances', 'w-0', 'unpause'), {})).status).toBe(200);
    await until('w-0 Ready', async () => (await readyOf())?.status === 'True', 30_000);
    const podReady = async () => {
      const pods = (await callRest(ep, 'GET', `/api/v1/namespaces/${NS}/pods?labelSelector=kubevirt.io%3Dvirt-launcher`)).body.items as { metadata: { ownerReferences?: { name: string }[] }; status?: { conditions?: { type: string; status: string }[] } }[];
      return pods.find((p) => p.metadata.ownerReferences?.[0]?.name === 'w-0')?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
    };
    expect(await podReady()).toBe('True');
    expect((await callRest(ep, 'PUT', subresource(NS, 'virtualmachineinstances', 'w-0', 'pause'), {})).status).toBe(200);
    await until('w-0 unready', async () => (await readyOf())?.reason === 'PausedByUser', 30_000);
    const writes = diffWrites(before, await readWrites(cluster.access)).filter(isStartWrite);
    // the Ready condition is virt-handler's while the VMI runs: virt-controller writes nothing for it
    expect(writes.filter((w) => shortUser(w.user) === 'kubevirt-controller')).toEqual([]);
    expect(writes.filter((w) => w.code === '409')).toEqual([]);
  }, 120_000);
});

/** virt-controller's /metrics (the port kv up gave it) saw every VMI reach Running, and its VMI queue work */
async function expectControllerMetrics(): Promise<void> {
  const [pid] = findProcesses(['controller', cluster.dataDir]);
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const port = args[args.indexOf('--metrics-port') + 1];
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const value = (series: string) => Number(text.split('\n').find((l) => l.startsWith(`${series} `))?.split(' ')[1]);
  expect(value('kubevirt_vmi_phase_transition_time_from_creation_seconds_count{phase="Running"}')).toBe(COUNT);
  expect(value('kubevirt_vmi_phase_transition_time_seconds_count{phase="Running",last_phase="Scheduled"}')).toBe(COUNT);
  expect(value('kubevirt_workqueue_adds_total{name="virt-controller-vmi"}')).toBeGreaterThanOrEqual(COUNT);
  expect(value('kubevirt_workqueue_work_duration_seconds_count{name="virt-controller-vmi"}')).toBeGreaterThanOrEqual(COUNT);
  expect(value('kubevirt_virt_controller_leading_status')).toBe(1);
}
