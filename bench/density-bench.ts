/**
 * Density: how many demo guests one machine holds. A fresh `kv up` (2 nodes, console on) gets
 * VirtualMachines with 96 MiB guests (the demo's smallest that boots: at 64 MiB its kernel stops while
 * unpacking, at 80 MiB it panics out of memory in the initramfs) (runStrategy Always), `--batch` at a time, each batch waited
 * for until its VMIs are Running, until `--target` run at once — or something stops it (a VMI not
 * Running in time, a Pod the scheduler cannot place: the bench says which and why). Then it
 * prints the memory of a launcher and of a QEMU per VM (median RSS / PSS / USS), the control
 * plane's, and whether the console's VM list is still live: in Chromium, the time from an API
 * write to a VM (a label on a halted probe VM) to its row showing it (goal ≤ 300 ms, 5 rounds).
 * Launcher Pods request 1/cpuAllocationRatio of a CPU per vCPU (KubeVirt's default 10: 100m), so two
 * nodes of one allocatable CPU each place about 20; the bench sets the KubeVirt CR's
 * `developerConfiguration.cpuAllocationRatio` (`--cpu-allocation-ratio`, default 100: 10m) as an
 * operator overcommitting a node would, and says so in its output. `--memory-overcommit` (percent, default
 * 100: none) sets `developerConfiguration.memoryOvercommit` the same way: a launcher Pod then requests
 * guest × 100 / it plus the overhead (KubeVirt's rule); the bench prints the request beside what a Pod uses.
 * Memory is read `--settle` seconds after the last batch is Running (Running is QEMU started, not the guest booted).
 * Usage: node --import tsx bench/density-bench.ts [--target 100] [--batch 10] [--memory 96Mi] [--cpu-allocation-ratio 100] [--memory-overcommit 100] [--settle 10]
 * (KV_POD_NETWORK as the environment says; 0 leaves the host's nftables alone)
 */
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { startCluster, type TestCluster } from '../e2e/harness';
import { makeKubeClients, type KubeClients } from '../server/kube/clients';
import { makeKubeConfig } from '../server/kube/kubeconfig';
import { clusterProcs, labelOf, memoryOf, podCgroupMemoryOf } from './cluster-memory';
import { Label } from '../lib/kubevirt/labels';
import { mintLoginLink } from '../server/console/login-link';
import { KUBEVIRT_CR_NAME, KUBEVIRT_CR_NAMESPACE } from '../lib/kubevirt/kubevirt-cr';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';

const { values: flags } = parseArgs({ options: { target: { type: 'string', default: '100' }, batch: { type: 'string', default: '10' }, memory: { type: 'string', default: '96Mi' }, 'cpu-allocation-ratio': { type: 'string', default: '100' }, 'memory-overcommit': { type: 'string', default: '100' }, settle: { type: 'string', default: '10' } } });
const CPU_ALLOCATION_RATIO = Number(flags['cpu-allocation-ratio']);
const MEMORY_OVERCOMMIT = Number(flags['memory-overcommit']);
/** the halted VM whose row the console must update: named to sort first, so the list (virtualized: only rows in view exist) renders it */
const PROBE = 'aa-probe';
const TARGET = Number(flags.target);
const BATCH = Number(flags.batch);
const NS = 'default';
const BATCH_TIMEOUT_MS = 180_000;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const mib = (kib: number) => (kib / 1024).toFixed(1);
const MIB = 1024 * 1024;

const vm = (name: string, runStrategy: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name, namespace: NS },
  spec: { runStrategy, template: { spec: { terminationGracePeriodSeconds: 0, domain: { memory: { guest: flags.memory }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] } } },
});

interface VmiShape { metadata: { name: string }; status?: { phase?: string; conditions?: { type: string; status: string; reason?: string; message?: string }[] } }

/** the first VMI of `names` not Running, with its phase, failing condition and its Pod's scheduling verdict */
async function whyNotRunning(k: KubeClients, names: string[]): Promise<string> {
  for (const name of names) {
    const vmi = await k.vmis.get(NS, name).catch(() => undefined) as VmiShape | undefined;
    if (vmi?.status?.phase !== 'Running') return `${name}: ${await describe(k, name, vmi)}`;
  }
  return 'all Running';
}

async function describe(k: KubeClients, name: string, vmi: VmiShape | undefined): Promise<string> {
  const parts = [`phase ${vmi?.status?.phase ?? 'no VMI'}`];
  const cond = vmi?.status?.conditions?.find((c) => c.status === 'False' && c.message);
  if (cond) parts.push(`${cond.type}: ${cond.message}`);
  const pods = await k.core.listNamespacedPod({ namespace: NS, labelSelector: `${Label.VMIID}=${name}` }).catch(() => undefined);
  const sched = pods?.items[0]?.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  if (sched) parts.push(`Pod unschedulable: ${sched.message}`);
  return parts.join(', ');
}

async function fill(k: KubeClients): Promise<{ running: number; stoppedBy?: string; seconds: number[] }> {
  let running = 0;
  const seconds: number[] = [];
  while (running < TARGET) {
    const names = Array.from({ length: Math.min(BATCH, TARGET - running) }, (_, i) => `dense-${String(running + i).padStart(3, '0')}`);
    const t0 = performance.now();
    await Promise.all(names.map((n) => k.vms.create(NS, vm(n, 'Always') as never)));
    const deadline = Date.now() + BATCH_TIMEOUT_MS;
    for (;;) {
      const list = await k.vmis.list(NS) as { items: VmiShape[] };
      const up = new Set(list.items.filter((v) => v.status?.phase === 'Running').map((v) => v.metadata.name));
      if (names.every((n) => up.has(n))) break;
      if (Date.now() > deadline) return { running: up.size, stoppedBy: await whyNotRunning(k, names), seconds };
      await sleep(500);
    }
    running += names.length;
    seconds.push((performance.now() - t0) / 1000);
    console.log(`${running} Running (this batch of ${names.length}: ${seconds[seconds.length - 1].toFixed(1)} s; load ${(await import('node:os')).loadavg()[0].toFixed(1)})`);
  }
  return { running, seconds };
}

function memory(dataDir: string): void {
  const procs = clusterProcs(dataDir).filter((p) => p.cmd[0] !== 'setpriv').map((p) => ({ pid: p.pid, label: labelOf(p.cmd), ...memoryOf(p.pid) })).filter((p) => p.rssKiB > 0);
  const of = (label: string) => procs.filter((p) => p.label === label);
  for (const label of ['launcher', 'qemu']) {
    const ps = of(label);
    console.log(`${label} per VM (n=${ps.length}): median RSS ${mib(median(ps.map((p) => p.rssKiB)))} MiB, PSS ${mib(median(ps.map((p) => p.pssKiB)))} MiB, USS ${mib(median(ps.map((p) => p.ussKiB)))} MiB`);
  }
  // the launcher Pod's cgroup (launcher + QEMU + page cache the Pod touched): what the scheduler's request stands for
  const pods = [...new Map(of('launcher').map((p) => podCgroupMemoryOf(p.pid)).filter((m) => m !== undefined).map((m) => [m.cgroup, m])).values()];
  const stat = (xs: number[]) => `median ${(median(xs) / MIB).toFixed(1)}, max ${(Math.max(...xs) / MIB).toFixed(1)} MiB`;
  const peaks = pods.map((p) => p.peak).filter((x) => x !== undefined);
  console.log(`launcher Pod cgroup per VM (n=${pods.length}): usage ${stat(pods.map((p) => p.usage))}; working set ${stat(pods.map((p) => p.workingSet))}${peaks.length ? `; peak ${stat(peaks)}` : ''}`);
  const rest = procs.filter((p) => p.label !== 'launcher' && p.label !== 'qemu');
  console.log(`control plane (${rest.map((p) => p.label).join(', ')}): RSS ${mib(rest.reduce((a, p) => a + p.rssKiB, 0))} MiB, PSS ${mib(rest.reduce((a, p) => a + p.pssKiB, 0))} MiB`);
}

/** how many of the Running VMIs have a booted guest: its guest agent (started in the demo's rcS) connected */
async function booted(k: KubeClients): Promise<{ running: number; agent: number }> {
  const list = await k.vmis.list(NS) as { items: VmiShape[] };
  const running = list.items.filter((v) => v.status?.phase === 'Running');
  return { running: running.length, agent: running.filter((v) => v.status?.conditions?.some((c) => c.type === 'AgentConnected' && c.status === 'True')).length };
}

async function listLiveness(cluster: TestCluster, k: KubeClients): Promise<number[]> {
  await k.vms.create(NS, vm(PROBE, 'Halted') as never);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.addInitScript('window.__name = (f) => f'); // tsx's keepNames wrapper, for page.evaluate
    // a fresh one-time link: the one `kv up` printed expires (LOGIN_CODE_TTL_SECONDS) long before 100 guests are up
    await page.goto(mintLoginLink(cluster.dataDir, cluster.consoleUrl!, cluster.access.token).url);
    await page.waitForURL(/\/$/);
    await page.goto(`${cluster.consoleUrl}/vms?sort=name`);
    await page.locator(`[data-vm="${PROBE}"]`).waitFor({ timeout: 60_000 });
    const times: number[] = [];
    for (let round = 1; round <= 5; round++) {
      const cores = round % 2 === 1 ? 2 : 1;
      await page.evaluate(({ want, name }) => {
        (window as unknown as { __seen: Promise<number> }).__seen = new Promise<number>((resolve) => {
          const mo = new MutationObserver(() => { if (document.querySelector(`[data-vm="${name}"][data-cpus="${want}"]`)) { mo.disconnect(); resolve(performance.now()); } });
          mo.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-cpus'] });
        });
      }, { want: cores, name: PROBE });
      const t0 = await page.evaluate(() => performance.now());
      await k.vms.mergePatch(NS, PROBE, { spec: { template: { spec: { domain: { cpu: { cores } } } } } });
      times.push(await page.evaluate(() => (window as unknown as { __seen: Promise<number> }).__seen) - t0);
    }
    return times;
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const cluster = await startCluster({ nodes: 2, console: true, timeoutMs: 300_000 });
  try {
    const k = makeKubeClients(makeKubeConfig({ server: cluster.access.server, token: cluster.access.token, caPem: cluster.access.ca }));
    await k.custom.patchNamespacedCustomObject({
      group: 'kubevirt.io', version: 'v1', namespace: KUBEVIRT_CR_NAMESPACE, plural: 'kubevirts', name: KUBEVIRT_CR_NAME,
      body: { spec: { configuration: { developerConfiguration: { cpuAllocationRatio: CPU_ALLOCATION_RATIO, memoryOvercommit: MEMORY_OVERCOMMIT } } } },
    }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    console.log(`KubeVirt CR: developerConfiguration.cpuAllocationRatio ${CPU_ALLOCATION_RATIO} (a launcher Pod requests ${Math.round(1000 / CPU_ALLOCATION_RATIO)}m per vCPU), memoryOvercommit ${MEMORY_OVERCOMMIT} %`);
    const { running, stoppedBy, seconds } = await fill(k);
    console.log(`density: ${running} guests of ${flags.memory} Running at once (target ${TARGET})${stoppedBy ? `; stopped by ${stoppedBy}` : ''}; batches of ${BATCH} took median ${median(seconds).toFixed(1)} s`);
    await sleep(Number(flags.settle) * 1000); // guests booted, launchers settled
    const b = await booted(k);
    console.log(`guests booted (guest agent connected): ${b.agent} of ${b.running} Running — a guest too small for its kernel and initrd never gets there`);
    memory(cluster.dataDir);
    const pods = await k.core.listNamespacedPod({ namespace: NS, labelSelector: 'kubevirt.io=virt-launcher' });
    const requests = pods.items.map((p) => p.spec?.containers.find((c) => c.name === 'compute')?.resources?.requests?.memory).filter((m) => m !== undefined);
    console.log(`launcher Pod memory request: ${[...new Set(requests)].join(', ')} (${requests.length} Pods)`);
    const live = await listLiveness(cluster, k);
    console.log(`console VM list with ${running} running: API write → row updated ${live.map((t) => t.toFixed(0)).join(', ')} ms (median ${median(live).toFixed(0)}; goal ≤ 300 ms)`);
  } finally {
    await cluster.stop();
  }
}

await main();
