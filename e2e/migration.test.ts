/**
 * Live migration on `kv up` with real guests: the demo guest's in-memory counter keeps counting
 * across node-1 → node-2 → node-1, the VMI follows the guest, the source QEMU is gone, and the
 * VMIM records its phases, timestamps and QEMU's progress and downtime.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClients } from '../server/kube/clients';
import { startCluster, type TestCluster } from './harness';
import { clientsOf, CounterReader, finalMigration, getVMI, isAlive, migrate, qemuPidOn, startGuest, until } from './migration-helpers';

/** Round trips (there and back); MIGRATION_STRESS_REPEAT=10 for the stress run. */
const REPEAT = Number(process.env.MIGRATION_STRESS_REPEAT ?? 1);
let cluster: TestCluster;
let k: KubeClients;

beforeAll(async () => {
  cluster = await startCluster({ nodes: 2, console: false });
  k = clientsOf(cluster);
});
afterAll(async () => { await cluster?.stop(); });

describe('live migration', () => {
  it(`moves a running guest there and back; its memory (a counter) survives (×${REPEAT})`, async () => {
    const vmi = await startGuest(k, 'mover');
    const first = vmi.status.nodeName as string;
    let reader = await CounterReader.open(cluster, k, 'mover');
    let seen = await reader.past(3);
    const visited = [first];
    for (let hop = 0; hop < 2 * REPEAT; hop++) {
      const before = await getVMI(k, 'mover');
      const from = before.status.nodeName as string;
      const sourcePid = qemuPidOn(cluster, before, from)!;
      expect(sourcePid).toBeGreaterThan(0);
      const t0 = Date.now();
      const name = await migrate(k, 'mover');
      const vmim = await finalMigration(k, name);
      const totalMs = Date.now() - t0;
      if (vmim.status.phase !== 'Succeeded') {
        const pods = await k.core.listNamespacedPod({ namespace: 'default' });
        process.stderr.write(`${JSON.stringify(pods.items.map((p) => ({ n: p.metadata?.name, l: p.metadata?.labels, node: p.spec?.nodeName, del: p.metadata?.deletionTimestamp, st: p.status })), null, 1)}\n`);
      }
      expect(vmim.status.phase, JSON.stringify(vmim.status)).toBe('Succeeded');
      const after = await getVMI(k, 'mover');
      expect(after.status.nodeName).not.toBe(from);
      visited.push(after.status.nodeName);
      expect(vmim.status.migrationState).toMatchObject({ sourceNode: from, targetNode: after.status.nodeName, completed: true });
      expect(Date.parse(vmim.status.migrationState.endTimestamp)).toBeGreaterThanOrEqual(Date.parse(vmim.status.migrationState.startTimestamp));
      expect(vmim.status.phaseTransitionTimestamps.map((p: { phase: string }) => p.phase)).toEqual(['Pending', 'Scheduling', 'Scheduled', 'PreparingTarget', 'TargetReady', 'Running', 'Succeeded']);
      const progress = JSON.parse(vmim.metadata.annotations['kubevirt-ts.io/migration-progress']);
      expect(progress.status).toBe('completed');
      await until('source QEMU gone', () => !isAlive(sourcePid), 30_000);
      // Ready follows the target's launcher Pod: the target's virt-handler writes it once it owns the VMI
      const ready = await until('Ready on the target', async () => {
        const v = await getVMI(k, 'mover');
        return v.status.conditions?.find((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True') && v;
      }, 30_000);
      expect(ready.status.nodeName).toBe(after.status.nodeName);
      // the counter carries on from where it was: it never restarts at 1
      reader.close();
      reader = await CounterReader.open(cluster, k, 'mover');
      const next = await reader.past(seen);
      expect(reader.values[0]).toBeGreaterThan(seen - 1);
      process.stderr.write(`migration ${from} → ${after.status.nodeName}: total ${totalMs} ms, QEMU total ${progress.totalTimeMs} ms, downtime ${progress.downtimeMs} ms; counter ${seen} → ${next}\n`);
      seen = next;
    }
    reader.close();
    expect(visited.filter((_, i) => i % 2 === 0).every((n) => n === first)).toBe(true);
  });
});
