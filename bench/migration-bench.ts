/**
 * Live-migration figures for an idle 256 MiB demo guest on a whole embedded cluster (`kv up`,
 * 2 nodes, QEMU under TCG): VMIM created → Succeeded (total), and QEMU's own total time and
 * downtime for the same migration. For comparison, the raw QEMU migration time between two plain
 * QEMUs on this machine (same kernel, same memory, no machinery). Goals: total ≤ 1.5 s, downtime ≤ 50 ms.
 * Usage: node --import tsx bench/migration-bench.ts [runs=5] [memory=256Mi]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startCluster } from '../e2e/harness';
import { clientsOf, getVMI, getVMIM, migrate, NS, until } from '../e2e/migration-helpers';
import { dataPaths } from '../server/data-dir';
import { resolveImage } from '../server/images/image-store';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { VirtualMachineInstanceMigration } from '../lib/kubevirt';
import { Annotation } from '../lib/kubevirt/labels';
import { handlerAccess, openStream, waitForSerial } from '../server/virt-handler/testing/stack-helpers';
import { QmpClient } from '../server/virt-launcher/qmp-client';

const RUNS = Number(process.argv[2] ?? 5);
const MEMORY = process.argv[3] ?? '256Mi';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = (s: string) => process.stdout.write(`${s}\n`);

const STAGES = ['Pending', 'Scheduling', 'Scheduled', 'PreparingTarget', 'TargetReady', 'Running', 'Succeeded'] as const;

/** ms from the client's create call to each phase (the phase timestamps carry milliseconds), and to QEMU's end. */
function stageTimes(m: VirtualMachineInstanceMigration, t0Wall: number): Record<string, number> {
  const at: Record<string, number> = {};
  for (const p of m.status!.phaseTransitionTimestamps ?? []) at[p.phase] = Date.parse(p.phaseTransitionTimestamp) - t0Wall;
  const end = m.status!.migrationState?.endTimestamp;
  if (end) at.qemuCompleted = Date.parse(end) - t0Wall;
  return at;
}

interface QueryMigrate { status: string; 'total-time'?: number; downtime?: number }

/** Two plain QEMUs of the demo image on loopback: boot the source to its login prompt, migrate, read QEMU's figures. */
async function rawQemuMigration(imagesDir: string): Promise<{ wallMs: number; totalMs?: number; downtimeMs?: number }> {
  const img = resolveImage(imagesDir, 'demo');
  if (!img?.kernel || !img.initrd) throw new Error('demo image not in the store');
  const dir = mkdtempSync(join(tmpdir(), 'kv-raw-mig-'));
  const port = await freePort();
  const common = ['-accel', 'tcg', '-m', MEMORY.replace(/i$/, ''), '-nodefaults', '-display', 'none', '-kernel', img.kernel, '-initrd', img.initrd, '-append', img.cmdline ?? 'console=ttyS0'];
  const procs: ChildProcess[] = [];
  try {
    const target = spawn('qemu-system-x86_64', [...common, '-serial', 'null', '-incoming', `tcp:127.0.0.1:${port}`], { stdio: 'ignore' });
    const source = spawn('qemu-system-x86_64', [...common, '-serial', 'stdio', '-qmp', `unix:${join(dir, 'qmp.sock')},server=on,wait=off`], { stdio: ['pipe', 'pipe', 'ignore'] });
    procs.push(target, source);
    let serial = '';
    source.stdout!.on('data', (d) => { serial += d; });
    await until('raw source login prompt', () => { source.stdin!.write('\r'); return serial.includes('login:'); }, 120_000);
    const qmp = await QmpClient.connect(join(dir, 'qmp.sock'), { timeoutMs: 10_000 });
    const t0 = performance.now();
    await qmp.execute('migrate', { uri: `tcp:127.0.0.1:${port}` });
    const done = await until('raw migration', async () => {
      const q = await qmp.execute<QueryMigrate>('query-migrate');
      return ['completed', 'failed'].includes(q.status) && q;
    }, 120_000);
    const wallMs = performance.now() - t0;
    qmp.close();
    return { wallMs, totalMs: done['total-time'], downtimeMs: done.downtime };
  } finally {
    for (const p of procs) p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const cluster = await startCluster({ nodes: 2, console: false, timeoutMs: 180_000 });
  try {
    const k = clientsOf(cluster);
    await k.vmis.create(NS, {
      apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'idle', namespace: NS },
      spec: { terminationGracePeriodSeconds: 0, domain: { memory: { guest: MEMORY }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] },
    } as KubernetesObject);
    const vmi = await until('idle Running', async () => { const v = await getVMI(k, 'idle'); return v?.status?.phase === 'Running' && v; }, 120_000);
    const node = await k.core.readNode({ name: vmi.status.nodeName });
    const ws = await openStream(handlerAccess(cluster.dataDir, vmi.status.nodeName, node.metadata!.annotations![Annotation.HandlerEndpoint]), NS, 'idle', 'console');
    await waitForSerial(ws, 'login:', 120_000);
    ws.close();
    const totals: number[] = [];
    const downtimes: number[] = [];
    const qemuTotals: number[] = [];
    const stages: Record<string, number>[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const t0Wall = Date.now();
      const name = await migrate(k, 'idle');
      const m = await until(`${name} final`, async () => { const x = await getVMIM(k, name); return ['Succeeded', 'Failed'].includes(x?.status?.phase) && x; }, 120_000)
        .catch(async (err) => { out(JSON.stringify({ vmim: (await getVMIM(k, name))?.status, vmi: (await getVMI(k, 'idle'))?.status }, null, 1)); throw err; });
      const total = performance.now() - t0;
      if (m.status.phase !== 'Succeeded') throw new Error(`migration ${name} failed: ${m.status.migrationState?.failureReason}`);
      const p = JSON.parse(m.metadata.annotations?.['kubevirt-ts.io/migration-progress'] ?? '{}');
      totals.push(total);
      if (typeof p.downtimeMs === 'number') downtimes.push(p.downtimeMs);
      if (typeof p.totalTimeMs === 'number') qemuTotals.push(p.totalTimeMs);
      const at = stageTimes(m, t0Wall);
      stages.push(at);
      out(`  stages (ms after create): ${[...STAGES, 'qemuCompleted'].map((st) => `${st} ${at[st] ?? '-'}`).join(', ')}`);
      out(`run ${i + 1}: ${m.status.migrationState.sourceNode} → ${m.status.migrationState.targetNode}  VMIM created → Succeeded ${total.toFixed(0)} ms  QEMU total ${p.totalTimeMs} ms  downtime ${p.downtimeMs} ms`);
      await until('one active pod', async () => Object.keys((await getVMI(k, 'idle')).status.activePods ?? {}).length === 1, 60_000);
    }
    out(`kubevirt-ts (${MEMORY}, ${RUNS} runs): VMIM created → Succeeded median ${median(totals).toFixed(0)} ms (goal ≤ 1500), QEMU total median ${median(qemuTotals)} ms, downtime median ${median(downtimes)} ms (goal ≤ 50)`);
    out(`stage medians (ms after create): ${[...STAGES, 'qemuCompleted'].map((st) => `${st} ${median(stages.map((x) => x[st] ?? NaN))}`).join(', ')}`);
    const raw = await rawQemuMigration(dataPaths(cluster.dataDir).images);
    out(`raw QEMU (${MEMORY}, loopback, idle at login prompt): migrate → completed ${raw.wallMs.toFixed(0)} ms wall, QEMU total ${raw.totalMs} ms, downtime ${raw.downtimeMs} ms`);
  } finally {
    await cluster.stop();
  }
}

await main();
