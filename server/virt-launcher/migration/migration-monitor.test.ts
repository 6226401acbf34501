import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { Domain } from '../domain';
import { MIGRATION_POLL_MS, monitorMigration } from './migration-monitor';
import type { MigrationInfo } from '../protocol';

/** A domain whose QMP answers query-migrate from a script (the last answer repeats). */
function fakeDomain(answers: Record<string, unknown>[]) {
  const d = new EventEmitter();
  let i = 0;
  const qmp = { execute: async () => answers[Math.min(i++, answers.length - 1)] };
  return Object.assign(d, { requireQmp: () => qmp }) as unknown as Domain & EventEmitter;
}

async function waitFor<T>(fn: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('monitorMigration', () => {
  it('reports the end at QEMU\'s MIGRATION event, well before the next poll, with QEMU\'s final figures', async () => {
    const d = fakeDomain([
      { status: 'completed' }, // QEMU says completed before it has filled in the figures
      { status: 'completed', 'total-time': 612, downtime: 4 },
    ]);
    const seen: MigrationInfo[] = [];
    const t0 = Date.now();
    monitorMigration(d, async (info) => { seen.push(info); });
    d.emit('qmpEvent', { event: 'MIGRATION', data: { status: 'completed' } });
    const final = await waitFor(() => seen.find((s) => s.status === 'completed'), 1000);
    expect(Date.now() - t0).toBeLessThan(MIGRATION_POLL_MS);
    expect(final).toMatchObject({ totalTimeMs: 612, downtimeMs: 4 });
    await new Promise((r) => setTimeout(r, MIGRATION_POLL_MS + 100)); // a poll period later: still one final report
    expect(seen.filter((s) => s.status === 'completed')).toHaveLength(1);
  });

  it('polls progress while the migration runs and stops when asked', async () => {
    const d = fakeDomain([{ status: 'active', ram: { remaining: 10 } }]);
    const seen: MigrationInfo[] = [];
    const m = monitorMigration(d, async (info) => { seen.push(info); });
    await waitFor(() => (seen.length >= 1 ? true : undefined), MIGRATION_POLL_MS * 3);
    m.stop();
    const count = seen.length;
    await new Promise((r) => setTimeout(r, MIGRATION_POLL_MS + 100));
    expect(seen).toHaveLength(count);
    expect(seen[0]).toMatchObject({ status: 'active', remainingBytes: 10 });
  });
});
