/**
 * Micro-benchmark of the embedded API server's store (SQLite driver, the real on-disk settings).
 * Prints creates/s (one writer: a commit each; 16 writers: group commits), point gets/s, list-1000 latency,
 * watch fan-out latency (commit → onEvent) with 10 watchers and compaction time.
 * Usage: node --import tsx bench/store-bench.ts [creates=3000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../server/apiserver/store/sqlite-store';
import type { Store } from '../server/apiserver/store/types';

const CREATES = Number(process.argv[2] ?? 3000);
const GETS = 50_000;
const LIST_RUNS = 50;
const WATCHERS = 10;
const WATCH_WRITES = 500;

const value = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'bench' }, data: { k: 'x'.repeat(300) } });
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const fmt = (n: number) => n.toFixed(n < 10 ? 3 : 0);

const cmKey = (i: number) => `/configmaps/bench/cm-${String(i).padStart(6, '0')}`;

/** one writer after another (a commit each), then `writers` at once sharing group commits */
async function benchCreates(s: Store, writers: number): Promise<void> {
  const from = writers === 1 ? 0 : CREATES;
  const before = s.commitStats();
  let next = from;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: writers }, async () => {
    while (next < from + CREATES) { const i = next++; await s.create(cmKey(i), value(`cm-${i}`)); }
  }));
  const ms = performance.now() - t0;
  const after = s.commitStats();
  const perCommit = (after.writes - before.writes) / (after.batches - before.batches);
  console.log(`create       ${fmt((CREATES / ms) * 1000)} /s  (${CREATES} creates, ${writers} concurrent, ${perCommit.toFixed(1)} per commit; WAL synced off the event loop before each ack)`);
}

function benchGets(s: Store): void {
  const t0 = performance.now();
  for (let i = 0; i < GETS; i++) s.get(`/configmaps/bench/cm-${String(i % CREATES).padStart(6, '0')}`);
  console.log(`get          ${fmt((GETS / (performance.now() - t0)) * 1000)} /s`);
}

function benchList(s: Store): void {
  const times: number[] = [];
  for (let i = 0; i < LIST_RUNS; i++) {
    const t0 = performance.now();
    const res = s.list('/configmaps/bench/', { limit: 1000 });
    times.push(performance.now() - t0);
    if (res.items.length !== Math.min(1000, 2 * CREATES)) throw new Error('short list');
  }
  console.log(`list 1000    p50 ${fmt(percentile(times, 0.5))} ms  p95 ${fmt(percentile(times, 0.95))} ms`);
}

async function benchWatch(s: Store): Promise<void> {
  const ac = new AbortController();
  const latencies: number[] = [];
  const submittedAt = new Map<string, number>();
  let received = 0;
  for (let w = 0; w < WATCHERS; w++) {
    s.watch('/pods/', { afterRevision: 0, signal: ac.signal, onEvent: (e) => {
      latencies.push(performance.now() - submittedAt.get(e.kv.key)!);
      received++;
    } });
  }
  for (let i = 0; i < WATCH_WRITES; i++) {
    const key = `/pods/bench/p-${i}`;
    submittedAt.set(key, performance.now());
    await s.create(key, value(`p-${i}`));
    await new Promise((resolve) => setImmediate(resolve));
  }
  ac.abort();
  if (received !== WATCHERS * WATCH_WRITES) throw new Error(`watchers got ${received} events`);
  console.log(`watch fan-out ${WATCHERS} watchers: p50 ${fmt(percentile(latencies, 0.5))} ms  p99 ${fmt(percentile(latencies, 0.99))} ms (write submitted → onEvent, commit included)`);
}

async function benchCompact(s: Store): Promise<void> {
  await Promise.all(Array.from({ length: CREATES }, (_, i) => s.update(cmKey(i), value(`cm-${i}-v2`), s.get(cmKey(i))!.modRevision)));
  const t0 = performance.now();
  s.compact(s.currentRevision());
  console.log(`compact      ${fmt(performance.now() - t0)} ms  (${CREATES} superseded rows)`);
}

const dir = mkdtempSync(join(tmpdir(), 'kv-store-bench-'));
const store = openSqliteStore(join(dir, 'state.db'));
try {
  await benchCreates(store, 1);
  await benchCreates(store, 16);
  benchGets(store);
  benchList(store);
  await benchWatch(store);
  await benchCompact(store);
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
