/**
 * Benchmark of the embedded API server over HTTPS (keep-alive), the server in its own process
 * with its real SQLite store. Prints: creates/s for VirtualMachine objects (with concurrency),
 * LIST latency of all of them, and watch delivery latency (write sent → event received) with
 * 100 watchers. Targets (issue 17): ≥ 3,000 creates/s, LIST 1,000 p99 ≤ 20 ms, watch p99 ≤ 10 ms.
 * Usage: node --import tsx bench/apiserver-bench.ts [vms=1000] [concurrency=16] [watchers=100]
 * The server runs as users run it: `kv apiserver` from the esbuild bundle (build it first with
 * `node bin/kv.mjs bundle`; the bench refuses a stale one). KV_BENCH_SERVER=tsx runs the sources
 * through tsx instead (its keepNames helper costs measurable CPU in hot closures).
 * KV_BENCH_CPU_PROF=<dir>: the API server process writes a V8 CPU profile there on exit.
 * KV_BENCH_SERVER_FLAGS='<node flags>': more node/V8 flags for the server, after kv up's own for it
 * (e.g. `--interrupt-budget=67584`, V8's default, to compare with kv up's tiering budget).
 * KV_BENCH_WATCH_SELECTOR=<labelSelector>: the watchers use it (e.g. `bench=yes`, which every VM
 * matches: the same events, through the selector path).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonClient, startChildServer, type ChildServer } from '../server/apiserver/testing/child-server';
import { startBundledServer } from './bundled-apiserver';

const VMS = Number(process.argv[2] ?? 1000);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const LIST_RUNS = 100;
const WATCHERS = Number(process.argv[4] ?? 100);
const WATCH_WRITES = 200;
const NS = '/apis/kubevirt.io/v1/namespaces/default/virtualmachines';
const WATCH_SELECTOR = process.env.KV_BENCH_WATCH_SELECTOR;

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const fmt = (n: number) => n.toFixed(1);
const out = (line: string) => process.stdout.write(`${line}\n`);

const vm = (name: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name, labels: { bench: 'yes' } },
  spec: {
    runStrategy: 'Halted',
    template: {
      metadata: { labels: { 'kubevirt.io/vm': name } },
      spec: {
        domain: { cpu: { cores: 1 }, memory: { guest: '256Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } },
        volumes: [{ name: 'root', containerDisk: { image: 'demo' } }],
      },
    },
  },
});

type Client = ReturnType<typeof jsonClient>;

/** CPU ms the API server process used so far (user + system, from /proc): stable when other work shares the cores */
function serverCpuMs(): number {
  const fields = readFileSync(`/proc/${server.proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** runs a phase and returns the server's CPU ms per operation during it */
async function cpuPer(ops: number, phase: () => Promise<void>): Promise<string> {
  const before = serverCpuMs();
  await phase();
  return `server CPU ${((serverCpuMs() - before) / ops).toFixed(2)} ms/op`;
}

async function benchCreates(c: Client): Promise<void> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < VMS) {
      const r = await c.call('POST', NS, vm(`vm-${String(next++).padStart(5, '0')}`));
      if (r.status !== 201) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
    }
  }));
  const ms = performance.now() - t0;
  out(`create VirtualMachine  ${fmt((VMS / ms) * 1000)} /s  (${VMS} objects, concurrency ${CONCURRENCY}, target >= 3000/s)`);
  out(`  load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}

async function benchList(c: Client): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < LIST_RUNS; i++) {
    const t0 = performance.now();
    const r = await c.call('GET', NS);
    times.push(performance.now() - t0);
    if (r.body.items.length !== VMS) throw new Error(`list returned ${r.body.items.length}`);
  }
  out(`LIST ${VMS} VMs          p50 ${fmt(percentile(times, 0.5))} ms  p99 ${fmt(percentile(times, 0.99))} ms  (${LIST_RUNS} lists, target p99 <= 20 ms)`);
}

/** a watch event on the VMs, as far as the benchmark reads it */
interface VMWatchEvent { type: string; object?: { metadata: { name: string }; spec?: { runStrategy?: string } } }

function openWatch(s: { url: string; caPem: string; adminToken: string }, rv: string, onEvent: (e: VMWatchEvent) => void): () => void {
  const selector = WATCH_SELECTOR ? `&labelSelector=${encodeURIComponent(WATCH_SELECTOR)}` : '';
  const req = request(`${s.url}${NS}?watch=true&resourceVersion=${rv}${selector}`, { ca: s.caPem, headers: { Authorization: `Bearer ${s.adminToken}` } }, (res) => {
    let buf = '';
    res.on('data', (d: Buffer) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) { onEvent(JSON.parse(buf.slice(0, i))); buf = buf.slice(i + 1); }
    });
  });
  req.on('error', () => undefined);
  req.end();
  return () => req.destroy();
}

async function benchWatch(c: Client, s: { url: string; caPem: string; adminToken: string }): Promise<void> {
  const rv = (await c.call('GET', `${NS}?limit=1`)).body.metadata.resourceVersion;
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  const stops = Array.from({ length: WATCHERS }, () => openWatch(s, rv, (e) => {
    const t = sentAt.get(e.object?.spec?.runStrategy === 'Always' ? e.object.metadata.name : '');
    if (t !== undefined) { latencies.push(performance.now() - t); received++; }
  }));
  await new Promise((r) => setTimeout(r, 300));
  for (let i = 0; i < WATCH_WRITES; i++) {
    const name = `vm-${String(i).padStart(5, '0')}`;
    sentAt.set(name, performance.now());
    await c.call('PATCH', `${NS}/${name}`, undefined).catch(() => undefined);
  }
  const deadline = Date.now() + 10_000;
  while (received < WATCHERS * WATCH_WRITES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  stops.forEach((stop) => stop());
  out(`watch delivery         p50 ${fmt(percentile(latencies, 0.5))} ms  p99 ${fmt(percentile(latencies, 0.99))} ms  (${WATCHERS} watchers${WATCH_SELECTOR ? ` with labelSelector ${WATCH_SELECTOR}` : ''} x ${WATCH_WRITES} writes, ${received} events = samples, write sent -> event, target p99 <= 10 ms)`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'kv-apiserver-bench-'));
const profDir = process.env.KV_BENCH_CPU_PROF;
const nodeArgs = [...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), ...(process.env.KV_BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [])];
const useTsx = process.env.KV_BENCH_SERVER === 'tsx';
const server: ChildServer = useTsx ? await startChildServer(dataDir, undefined, nodeArgs) : await startBundledServer(dataDir, nodeArgs);
out(`server: ${useTsx ? 'sources through tsx' : 'kv apiserver from the bundle'}`);
const client = jsonClient(server, CONCURRENCY);
const patchClient = {
  ...client,
  call: (method: string, path: string, body?: unknown) => method === 'PATCH' ? mergePatch(path) : client.call(method, path, body),
};
function mergePatch(path: string): Promise<{ status: number; body: null }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify({ spec: { runStrategy: 'Always' } });
    const req = request(`${server.url}${path}`, { method: 'PATCH', agent: client.agent, headers: { Authorization: `Bearer ${server.adminToken}`, 'Content-Type': 'application/merge-patch+json', 'Content-Length': String(Buffer.byteLength(payload)) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: null }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}
try {
  out(`  ${await cpuPer(VMS, () => benchCreates(client))}`);
  out(`  ${await cpuPer(LIST_RUNS, () => benchList(client))}`);
  out(`  ${await cpuPer(WATCH_WRITES, () => benchWatch(patchClient, server))} (a PATCH and its ${WATCHERS} watch events)`);
} finally {
  client.close();
  server.proc.kill('SIGTERM');
  await new Promise((r) => server.proc.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
