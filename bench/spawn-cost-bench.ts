/**
 * What one child process costs the process that spawns it (issue 17): `spawn('true')` N times from
 * a Node process holding a heap of HEAP_MIB (as the shared `kv control-plane` does), then from a
 * small fresh one. Per spawn: how long the spawn() call held the event loop (libuv forks, and the
 * kernel copies the page tables of the whole process, before spawn() returns), the spawning
 * process's CPU, and wall time to the child's exit.
 *   node --import tsx bench/spawn-cost-bench.ts [N=50] [HEAP_MIB=300]
 */
import { spawn } from 'node:child_process';

const N = Number(process.argv[2] ?? 50);
const HEAP_MIB = Number(process.argv[3] ?? 300);

/** objects the GC keeps (small ones, spread over the heap, as a real server's caches are) */
function fillHeap(mib: number): unknown[] {
  const keep: unknown[] = [];
  const per = 1 << 16;
  for (let bytes = 0; bytes < mib * 1024 * 1024; bytes += per * 40) keep.push(Array.from({ length: per }, (_, i) => ({ i, s: `k${i}` })));
  return keep;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(2)} ms, p95 ${pct(xs, 95).toFixed(2)} ms, mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2)} ms`;

async function measure(label: string): Promise<void> {
  const blocked: number[] = [];
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < N; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const child = spawn('true', [], { stdio: 'ignore' });
    const t1 = performance.now();
    await new Promise((r) => child.on('exit', r));
    const c = process.cpuUsage(c0);
    blocked.push(t1 - t0);
    cpu.push((c.user + c.system) / 1000);
    wall.push(performance.now() - t0);
  }
  const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
  console.log(`${label} (rss ${rss} MiB, ${N} spawns of true)`);
  console.log(`  event loop held by spawn(): ${fmt(blocked)}`);
  console.log(`  spawning process CPU:       ${fmt(cpu)}`);
  console.log(`  spawn → exit:               ${fmt(wall)}`);
}

if (process.env.KV_SPAWN_BENCH_CHILD) {
  const heap = fillHeap(Number(process.env.KV_SPAWN_BENCH_CHILD));
  await measure(`heap ${process.env.KV_SPAWN_BENCH_CHILD} MiB`);
  if (heap.length < 0) console.log(heap);
} else {
  // each case in its own process, so the big one's heap does not leak into the small one's
  for (const mib of [HEAP_MIB, 0]) {
    await new Promise((r) => spawn(process.execPath, [...process.execArgv, process.argv[1], String(N)], { stdio: 'inherit', env: { ...process.env, KV_SPAWN_BENCH_CHILD: String(mib) } }).on('exit', r));
  }
  console.log(`load average: ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}
