/**
 * VMI start latency on a whole embedded cluster (`kv up`, 2 nodes, real QEMU under TCG, demo image):
 * creates N VMIs at R per second and prints p50/p95 of create → phase Running and create → the
 * guest's login prompt on the serial console (read through virt-handler), and where the time went
 * (bench/vmi-start-stages.ts). Then, with our guests gone, the floor: as many bare QEMUs of the same
 * guest (machine, devices, disk overlay as our launcher gives it) started at the same rate on the
 * same machine (bench/raw-qemu-floor.ts), and our create → login p50 against theirs. It prints the
 * CPU seconds per started VMI of the control plane (API server, virt-api, the shared control-plane
 * process) and of the launchers (bench/component-cpu.ts). Admission is on (virt-api always runs).
 * It also prints the API writes per VMI by verb, resource and writer, and the 409 conflicts (the
 * API server's kubevirt_ts_apiserver_write_requests_total, from the first create until Running).
 * With --paused the VMIs use `startStrategy: Paused`: the machinery alone, no guest boot and no
 * login measurement.
 * Usage: node --import tsx bench/vmi-start-bench.ts [count=20] [perSecond=10] [memory=128Mi] [--paused] [--cpu-allocation-ratio=N]
 * Launcher Pods request 1/cpuAllocationRatio of a CPU per vCPU (KubeVirt's default 10: 100m), so two nodes of one
 * allocatable CPU place about 20 of them; `--cpu-allocation-ratio=100` (KubeVirt CR developerConfiguration, as an
 * operator overcommitting CPU would set it) lets KubeVirt's 100-VMI density run fit, and the bench says so.
 */
import { readFileSync } from 'node:fs';
import { PatchStrategy, Watch, setHeaderOptions, type KubernetesObject } from '@kubernetes/client-node';
import { KUBEVIRT_CR_NAME, KUBEVIRT_CR_NAMESPACE } from '../lib/kubevirt/kubevirt-cr';
import type { VirtualMachineInstance } from '../lib/kubevirt';
import { startCluster } from '../e2e/harness';
import { dataPaths } from '../server/data-dir';
import { componentCpu, cpuUsed } from './component-cpu';
import { clusterProcs, labelOf, memoryOf } from './cluster-memory';
import { rawQemuFloor } from './raw-qemu-floor';
import { findProcesses } from '../server/virt-handler/testing/stack-helpers';
import { makeKubeClients } from '../server/kube/clients';
import { makeKubeConfig } from '../server/kube/kubeconfig';
import { Annotation } from '../lib/kubevirt/labels';
import { handlerAccess, openStream } from '../server/virt-handler/testing/stack-helpers';
import type { WebSocket } from 'ws';
import { StageRecorder } from './vmi-start-stages';
import { diffWrites, formatWrites, isStartWrite, readReads, readTlsConnections, readWatches, readWrites } from '../e2e/support/api-writes';

const PAUSED = process.argv.includes('--paused');
const RATIO = Number(process.argv.find((a) => a.startsWith('--cpu-allocation-ratio='))?.split('=')[1] ?? 0);
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const COUNT = Number(args[0] ?? 20);
const RATE = Number(args[1] ?? 10);
const MEMORY = args[2] ?? '128Mi';
const NS = 'default';
const TIMEOUT_MS = 300_000;
/** Both login measurements press Enter this often (a prompt printed before we listened is printed again). */
const POKE_MS = 300;
const IDLE_SAMPLE_MS = 5000;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const line = (label: string, xs: number[]) => console.log(`${label.padEnd(26)} n=${xs.length}  p50 ${pct(xs, 0.5)?.toFixed(0)} ms  p95 ${pct(xs, 0.95)?.toFixed(0)} ms  max ${Math.max(...xs).toFixed(0)} ms`);

/** Pokes the serial console like rawBootMs does; resolves ms after `createdAt` at the moment `login:` arrives. */
function waitForLogin(ws: WebSocket, createdAt: number): Promise<number> {
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { clearInterval(poke); reject(new Error('no login prompt')); }, TIMEOUT_MS);
    const poke = setInterval(() => ws.send(Buffer.from('\r')), POKE_MS);
    ws.send(Buffer.from('\r'));
    ws.on('message', (d: Buffer) => {
      out = (out + d.toString('latin1')).slice(-64);
      if (out.includes('login:')) { clearTimeout(timer); clearInterval(poke); resolve(performance.now() - createdAt); }
    });
  });
}

/** a QEMU of one of this bench's VMIs (its -name is guest=<ns>_bench-N) */
function qemuOfBench(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`guest=${NS}_bench-`);
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  process.env.KV_LOG_LEVEL ??= 'info'; // the launchers' `domain started` line carries their step durations
  const cluster = await startCluster({ nodes: 2, console: false, timeoutMs: 180_000 });
  try {
    const kc = makeKubeConfig({ server: cluster.access.server, token: cluster.access.token, caPem: cluster.access.ca });
    const k = makeKubeClients(kc);
    if (RATIO) {
      await k.custom.patchNamespacedCustomObject({
        group: 'kubevirt.io', version: 'v1', namespace: KUBEVIRT_CR_NAMESPACE, plural: 'kubevirts', name: KUBEVIRT_CR_NAME,
        body: { spec: { configuration: { developerConfiguration: { cpuAllocationRatio: RATIO } } } },
      }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
      console.log(`KubeVirt CR: developerConfiguration.cpuAllocationRatio ${RATIO} (a launcher Pod requests ${Math.round(1000 / RATIO)}m per vCPU)`);
    }
    // the control plane's idle rate first (leases, heartbeats), to take out of the start window's figure
    const idleFrom = componentCpu(cluster.dataDir);
    await new Promise((r) => setTimeout(r, IDLE_SAMPLE_MS));
    const idle = cpuUsed(idleFrom, componentCpu(cluster.dataDir));
    const cpuBefore = componentCpu(cluster.dataDir);
    const windowStart = performance.now();
    const writesBefore = await readWrites(cluster.access);
    const tlsBefore = await readTlsConnections(cluster.access);
    const readsBefore = await readReads(cluster.access);
    const created = new Map<string, number>();
    const running = new Map<string, number>();
    const login = new Map<string, number>();
    const logins: Promise<void>[] = [];
    const stages = new StageRecorder(kc, NS);
    await stages.start();
    const watchLogin = async (name: string, node: string) => {
      const n = await k.core.readNode({ name: node });
      const h = handlerAccess(cluster.dataDir, node, n.metadata!.annotations![Annotation.HandlerEndpoint]);
      const ws = await openStream(h, NS, name, 'console');
      login.set(name, await waitForLogin(ws, created.get(name)!));
      ws.close();
    };
    const watch = await new Watch(kc).watch(`/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances`, {}, (_type, vmi: VirtualMachineInstance) => {
      const name = vmi.metadata.name!;
      if (vmi.status?.phase === 'Running' && created.has(name) && !running.has(name)) {
        running.set(name, performance.now() - created.get(name)!);
        if (!PAUSED) logins.push(watchLogin(name, vmi.status.nodeName!).catch((err) => console.error(`${name}: ${err.message}`)));
      }
    }, () => undefined);
    const creates: Promise<unknown>[] = [];
    const t0 = performance.now();
    for (let i = 0; i < COUNT; i++) {
      await new Promise((r) => setTimeout(r, Math.max(0, t0 + (i * 1000) / RATE - performance.now()))); // a steady rate, however long a create takes
      const name = `bench-${i}`;
      created.set(name, performance.now());
      stages.created(name);
      creates.push(k.vmis.create(NS, {
        apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: NS },
        spec: { ...(PAUSED ? { startStrategy: 'Paused' } : {}), terminationGracePeriodSeconds: 0, domain: { memory: { guest: MEMORY }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] },
      } as KubernetesObject));
    }
    await Promise.all(creates);
    const deadline = Date.now() + TIMEOUT_MS;
    while ((running.size < COUNT || (!PAUSED && logins.length < COUNT)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    await new Promise((r) => setTimeout(r, 2000)); // the writes that follow Running (Ready after the Pod) land
    const allWrites = diffWrites(writesBefore, await readWrites(cluster.access));
    const writes = allWrites.filter(isStartWrite);
    const tlsAfter = await readTlsConnections(cluster.access);
    const watches = await readWatches(cluster.access);
    const readsAfter = await readReads(cluster.access);
    const reads = [...readsAfter].map(([k, n]) => [k, n - (readsBefore.get(k) ?? 0)] as const).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
    const cpu = cpuUsed(cpuBefore, componentCpu(cluster.dataDir)); // the start window: first create → 2 s after the last Running
    const windowMs = performance.now() - windowStart;
    await Promise.all(logins);
    watch.abort();
    stages.stop();
    stages.readLauncherLogs(cluster.dataDir);
    console.log(`VMI start, ${COUNT} VMIs created at ${RATE}/s, guest ${MEMORY}, 2 nodes, TCG${PAUSED ? ', startStrategy Paused' : ''}`);
    line('create → Running', [...running.values()]);
    if (!PAUSED) line('create → login prompt', [...login.values()]);
    const sum = (ws: typeof writes) => ws.reduce((a, w) => a + w.n, 0) / COUNT;
    console.log(`API writes per VMI until 2 s after all Running (VMIs and Pods): ${sum(writes).toFixed(2)}, of them 409 conflicts: ${sum(writes.filter((w) => w.code === '409')).toFixed(2)}`);
    console.log(`new TLS connections to the API server per VMI: ${((tlsAfter.full - tlsBefore.full) / COUNT).toFixed(2)} full handshakes, ${((tlsAfter.resumed - tlsBefore.resumed) / COUNT).toFixed(2)} resumed sessions`);
    for (const row of formatWrites(writes, COUNT)) console.log(row);
    const others = allWrites.filter((w) => !isStartWrite(w));
    console.log(`other API writes per VMI in that window (events, leases, heartbeats): ${sum(others).toFixed(2)}`);
    for (const row of formatWrites(others, COUNT)) console.log(row);
    console.log(`API reads per VMI in that window: ${(reads.reduce((a, [, n]) => a + n, 0) / COUNT).toFixed(2)} (${reads.map(([k, n]) => `${k} ${(n / COUNT).toFixed(2)}`).join(', ')})`);
    console.log(`open watches: ${watches.map((w) => `${w.resource} ${w.n}`).join(', ')}`);
    console.log('stages (ms after create):');
    for (const row of stages.summary(pct)) console.log(row);
    const CONTROL_PLANE = ['apiserver', 'virt-api', 'control-plane', 'console'];
    const sumOf = (m: Map<string, number>, names: string[]) => names.reduce((a, n) => a + (m.get(n) ?? 0), 0);
    const idlePerMs = sumOf(idle, CONTROL_PLANE) / IDLE_SAMPLE_MS;
    const marginal = (sumOf(cpu, CONTROL_PLANE) - idlePerMs * windowMs) * 1000 / COUNT;
    console.log(`CPU in the start window (${(windowMs / 1000).toFixed(1)} s): ${[...cpu].map(([n, v]) => `${n} ${v.toFixed(2)} s`).join(', ')}`);
    console.log(`control-plane CPU per started VMI: ${(sumOf(cpu, CONTROL_PLANE) * 1000 / COUNT).toFixed(0)} ms, ${marginal.toFixed(0)} ms above its idle rate (${(idlePerMs * 1e6).toFixed(0)} ms/s); launchers ${(sumOf(cpu, ['launcher']) * 1000 / COUNT).toFixed(0)} ms (goal: control plane ≤ 50 ms)`);
    const launchers = clusterProcs(cluster.dataDir).filter((p) => labelOf(p.cmd) === 'launcher').map((p) => memoryOf(p.pid)).filter((m) => m.rssKiB > 0);
    const mibOf = (xs: number[]) => `${(pct(xs, 0.5)! / 1024).toFixed(1)} (${(Math.min(...xs) / 1024).toFixed(1)}–${(Math.max(...xs) / 1024).toFixed(1)})`;
    if (launchers.length) console.log(`launcher memory, ${launchers.length} launchers with their domain ${PAUSED ? 'paused' : 'running'}: RSS ${mibOf(launchers.map((m) => m.rssKiB))} MiB, USS ${mibOf(launchers.map((m) => m.ussKiB))} MiB`);
    const planes = clusterProcs(cluster.dataDir).filter((p) => labelOf(p.cmd) === 'control-plane' || labelOf(p.cmd) === 'virt-api+console');
    console.log(`control-plane processes' memory after the starts: ${planes.map((p) => `${labelOf(p.cmd)} RSS ${(memoryOf(p.pid).rssKiB / 1024).toFixed(1)} MiB`).join(', ')}`);
    console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
    if (!PAUSED) {
      // the floor runs alone: our guests are deleted and their QEMUs gone first
      await Promise.all([...created.keys()].map((n) => k.vmis.delete(NS, n).catch(() => undefined)));
      const gone = Date.now() + 120_000;
      while (findProcesses(['qemu-system-x86_64']).some((pid) => qemuOfBench(pid)) && Date.now() < gone) await new Promise((r) => setTimeout(r, 500));
      const floor = await rawQemuFloor({ imagesDir: dataPaths(cluster.dataDir).images, count: COUNT, rate: RATE, memory: MEMORY, timeoutMs: TIMEOUT_MS });
      line('raw QEMU start → login', floor);
      console.log(`create → login p50 / raw QEMU p50 at the same rate: ${(pct([...login.values()], 0.5) / pct(floor, 0.5)).toFixed(2)}× (goal ≤ 1.2×)`);
    }
  } finally {
    await cluster.stop();
  }
}

await main();
