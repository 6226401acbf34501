/**
 * Micro-benchmark of the embedded API server's store (SQLite driver, the real on-disk settings).
 * Prints creates/s (one fsync'd commit each), point gets/s, list-1000 latency,
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

function benchCreates(s: Store): void {
  const t0 = performance.now();
  for (let i = 0; i < CREATES; i++) s.create(`/configmaps/bench/cm-${String(i).padStart(6, '0')}`, value(`cm-${i}`));
  const ms = performance.now() - t0;
  console.log(`create       ${fmt((CREATES / ms) * 1000)} /s  (${CREATES} single-row commits, synchronous=FULL)`);
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
    if (res.items.length !== Math.min(1000, CREATES)) throw new Error('short list');
  }
  console.log(`list 1000    p50 ${fmt(percentile(times, 0.5))} ms  p95 ${fmt(percentile(times, 0.95))} ms`);
}

async function benchWatch(s: Store): Promise<void> {
  const ac = new AbortController();
  const latencies: number[] = [];
  const committedAt = new Map<number, number>();
  let received = 0;
  for (let w = 0; w < WATCHERS; w++) {
    s.watch('/pods/', { afterRevision: 0, signal: ac.signal, onEvent: (e) => {
      latencies.push(performance.now() - committedAt.get(e.kv.modRevision)!);
      received++;
    } });
  }
  for (let i = 0; i < WATCH_WRITES; i++) {
    const rev = s.create(`/pods/bench/p-${i}`, value(`p-${i}`));
    committedAt.set(rev, performance.now());
    await new Promise((resolve) => setImmediate(resolve));
  }
  ac.abort();
  if (received !== WATCHERS * WATCH_WRITES) throw new Error(`watchers got ${received} events`);
  console.log(`watch fan-out ${WATCHERS} watchers: p50 ${fmt(percentile(latencies, 0.5))} ms  p99 ${fmt(percentile(latencies, 0.99))} ms (commit acknowledged → onEvent)`);
}

function benchCompact(s: Store): void {
  for (let i = 0; i < CREATES; i++) {
    const key = `/configmaps/bench/cm-${String(i).padStart(6, '0')}`;
    s.update(key, value(`cm-${i}-v2`), s.get(key)!.modRevision);
  }
  const t0 = performance.now();
  s.compact(s.currentRevision());
  console.log(`compact      ${fmt(performance.now() - t0)} ms  (${CREATES} superseded rows)`);
}

const dir = mkdtempSync(join(tmpdir(), 'kv-store-bench-'));
const store = openSqliteStore(join(dir, 'state.db'));
try {
  benchCreates(store);
  benchGets(store);
  benchList(store);
  await benchWatch(store);
  benchCompact(store);
} finally {
  store.close();
  rmSync(dir, { recursive: true, force: true });
}
