import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DuplicateRevisionError, type LogBackend } from './log-backend';
import type { NewLogRow } from './log-row';
import { createMemoryBackend } from './memory-backend';
import { openSqliteBackend } from './sqlite-backend';

const dir = mkdtempSync(join(tmpdir(), 'kv-backend-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const row = (name: string, prevRevision: number, over: Partial<NewLogRow> = {}): NewLogRow => ({
  name, created: prevRevision === 0, deleted: false, createRevision: 0, prevRevision, value: `${name}@${prevRevision}`, oldValue: null, ...over,
});
const allRows = (b: LogBackend) => b.readRowsAfter({ prefix: '', after: 0, until: b.currentRevision(), limit: 1000 }).map((r) => r.id);

describe.each([
  ['memory', () => createMemoryBackend()],
  ['sqlite', () => openSqliteBackend(join(dir, `b-${n++}.db`))],
])('%s backend', (_name, openBackend) => {
  it.each([
    ['a second first row for a key', [row('/a', 0)], row('/a', 0)],
    ['a second successor of the same row', [row('/a', 0), row('/a', 1)], row('/a', 1)],
  ])('refuses %s (lost compare-and-swap)', (_case, before, racer) => {
    const b = openBackend();
    for (const r of before) b.appendRow(r);
    expect(() => b.appendRow(racer)).toThrow(DuplicateRevisionError);
    expect(b.currentRevision()).toBe(before.length);
    b.close();
  });

  it('a transaction that throws leaves nothing it appended, and the next one goes on from the same revision', () => {
    const b = openBackend();
    b.appendRow(row('/a', 0)); // 1
    expect(() => b.transaction(() => {
      b.appendRow(row('/a', 1, { value: 'doomed' })); // 2, rolled back
      b.appendRow(row('/b', 0)); // 3, rolled back
      throw new Error('abort');
    })).toThrow('abort');
    expect(b.currentRevision()).toBe(1);
    expect(b.latestRow('/a')?.value).toBe('/a@0');
    expect(b.latestRow('/b')).toBeUndefined();
    expect(b.listLatestRows('', {}).map((r) => r.name)).toEqual(['/a']);
    b.transaction(() => {
      b.appendRow(row('/a', 1)); // the same (key, prev) is free again
      b.appendRow(row('/c', 0));
    });
    expect(b.listLatestRows('', {}).map((r) => [r.name, r.prevRevision])).toEqual([['/a', 1], ['/c', 0]]);
    expect(b.currentRevision()).toBeGreaterThan(1);
    b.close();
  });

  it('compaction drops superseded rows and tombstones up to the revision, nothing newer', () => {
    const b = openBackend();
    b.appendRow(row('/a', 0)); // 1: superseded by 2
    b.appendRow(row('/a', 1)); // 2: latest of /a, kept
    b.appendRow(row('/b', 0)); // 3: superseded by tombstone 4
    b.appendRow(row('/b', 3, { deleted: true })); // 4: tombstone
    b.appendRow(row('/c', 0)); // 5: superseded by 6, but 6 is above the compact revision
    b.appendRow(row('/c', 5)); // 6
    b.compactRows(4);
    expect(allRows(b)).toEqual([2, 5, 6]);
    expect(b.latestRow('/b')).toBeUndefined();
    b.compactRows(6);
    expect(allRows(b)).toEqual([2, 6]);
    expect(b.listLatestRows('', {}).map((r) => r.id)).toEqual([2, 6]);
    b.close();
  });
});
