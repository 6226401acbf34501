/**
 * Memory footprint of an embedded cluster (`kv up`, console on, KV_POD_NETWORK=0): the RSS and PSS
 * of every process of the cluster, by component, idle with 2 nodes and then with one VMI running
 * (its launcher and its QEMU apart), and idle with 3 nodes for the cost of one more node.
 * RSS from /proc/<pid>/status VmRSS; PSS from /proc/<pid>/smaps_rollup (shared pages split between
 * the processes that map them, so the PSS column adds up) and USS (its private pages: what its exit
 * would free).
 * Usage: node --import tsx bench/footprint-bench.ts [--settle-ms 70000] [--no-vm] [--nodes-only 2] [--separate-processes]
 * (--separate-processes: one process per component, as before `kv control-plane`)
 */
import { parseArgs } from 'node:util';
import { startCluster, type TestCluster } from '../e2e/harness';
import { clusterProcs, labelOf, memoryOf } from './cluster-memory';
import { makeKubeClients } from '../server/kube/clients';
import { makeKubeConfig } from '../server/kube/kubeconfig';

interface Sample { label: string; pid: number; rssKiB: number; pssKiB: number; ussKiB: number }

const { values: flags } = parseArgs({ options: { 'settle-ms': { type: 'string', default: '70000' }, 'no-vm': { type: 'boolean', default: false }, 'nodes-only': { type: 'string' }, 'separate-processes': { type: 'boolean', default: false } } });
const SETTLE_MS = Number(flags['settle-ms']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (kib: number) => (kib / 1024).toFixed(1).padStart(7);

function sample(dataDir: string): Sample[] {
  return clusterProcs(dataDir)
    .filter((p) => p.cmd[0] !== 'setpriv') // setpriv execs the component: same pid, counted once
    .map((p) => ({ label: labelOf(p.cmd), pid: p.pid, ...memoryOf(p.pid) }))
    .filter((s) => s.rssKiB > 0);
}

function print(title: string, samples: Sample[]): { rss: number; pss: number } {
  console.log(`\n${title}`);
  console.log(`${'process'.padEnd(22)} ${'pid'.padStart(8)} ${'RSS MiB'.padStart(7)} ${'PSS MiB'.padStart(7)} ${'USS MiB'.padStart(7)}`);
  for (const s of [...samples].sort((a, b) => b.rssKiB - a.rssKiB)) console.log(`${s.label.padEnd(22)} ${String(s.pid).padStart(8)} ${mib(s.rssKiB)} ${mib(s.pssKiB)} ${mib(s.ussKiB)}`);
  const rss = samples.reduce((a, s) => a + s.rssKiB, 0);
  const pss = samples.reduce((a, s) => a + s.pssKiB, 0);
  console.log(`${'total'.padEnd(22)} ${String(samples.length).padStart(8)} ${mib(rss)} ${mib(pss)}`);
  return { rss, pss };
}

async function startVmi(cluster: TestCluster): Promise<void> {
  const kc = makeKubeConfig({ server: cluster.access.server, token: cluster.access.token, caPem: cluster.access.ca });
  const k = makeKubeClients(kc);
  await k.vmis.create('default', {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'footprint', namespace: 'default' },
    spec: { terminationGracePeriodSeconds: 0, domain: { memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] },
  } as never);
  const deadline = Date.now() + 180_000;
  for (;;) {
    const vmi = await k.vmis.get('default', 'footprint') as { status?: { phase?: string } };
    if (vmi.status?.phase === 'Running') return;
    if (Date.now() > deadline) throw new Error(`VMI not Running: ${vmi.status?.phase}`);
    await sleep(250);
  }
}

async function run(nodes: number, withVm: boolean): Promise<{ idle: number; idlePss: number }> {
  const cluster = await startCluster({ nodes, console: true, timeoutMs: 300_000, upArgs: flags['separate-processes'] ? ['--separate-processes'] : [] });
  try {
    await sleep(SETTLE_MS); // caches filled, first syncs done, both start-up compactions (server/startup-gc.ts) done; the console's first page not yet compiled
    const idle = print(`kv up, ${nodes} nodes, console on, idle (KV_POD_NETWORK=${process.env.KV_POD_NETWORK})`, sample(cluster.dataDir));
    if (withVm) {
      await startVmi(cluster);
      await sleep(SETTLE_MS);
      const s = sample(cluster.dataDir);
      print(`kv up, ${nodes} nodes, one VMI Running (128Mi demo guest)`, s);
      for (const label of ['launcher', 'qemu']) {
        const p = s.find((x) => x.label === label);
        console.log(`${label}: ${p ? `RSS ${mib(p.rssKiB).trim()} MiB, PSS ${mib(p.pssKiB).trim()} MiB, USS ${mib(p.ussKiB).trim()} MiB` : 'not found'}`);
      }
    }
    return { idle: idle.rss, idlePss: idle.pss };
  } finally {
    await cluster.stop();
  }
}

async function main(): Promise<void> {
  process.env.KV_POD_NETWORK = '0'; // host-wide nftables tables and DNS address: never two clusters with it at once
  if (flags['nodes-only']) { await run(Number(flags['nodes-only']), !flags['no-vm']); return; }
  const two = await run(2, !flags['no-vm']);
  const three = await run(3, false);
  console.log(`\nidle total, 2 nodes: RSS ${mib(two.idle).trim()} MiB, PSS ${mib(two.idlePss).trim()} MiB (goal RSS ≤ 350 MiB)`);
  console.log(`per added node (3 − 2 nodes): RSS ${mib(three.idle - two.idle).trim()} MiB, PSS ${mib(three.idlePss - two.idlePss).trim()} MiB (goal ≤ 40 MiB)`);
}

await main();
