/**
 * How fast a bare `kv launcher` starts and how much memory it holds idle, for comparing builds of
 * the `kv` bundle (e.g. a pinned copy of main's build against this branch's). For each round and
 * each build, in turn: exec `node bin/kv.mjs launcher` (KV_BUNDLE = that build) on a fresh pod dir,
 * time exec → launcher.ready (it listens) and → its launcher.sock answering a `status` request, its CPU at that moment (utime + stime), then
 * RSS / PSS / USS 1 s later (no VMI: the launcher waits for `sync`), then SIGTERM. Its log goes to a file
 * that must hold the JSON line `launcher listening`.
 * Usage: node --import tsx bench/launcher-start-measure.ts [--rounds 10] LABEL=/path/to/cli.mjs ...
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { memoryOf } from './cluster-memory';

const { values: flags, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '10' } } });
const ROUNDS = Number(flags.rounds);
const KV = resolve(import.meta.dirname, '..', 'bin', 'kv.mjs');
const TICKS_PER_S = 100;
const builds = positionals.map((p) => { const [label, entry] = p.split('='); return { label: label!, entry: entry! }; });
if (builds.length === 0) throw new Error('usage: launcher-start-measure.ts [--rounds N] LABEL=/path/to/cli.mjs ...');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One request/response on the launcher's socket; rejects while nobody listens yet. */
function ask(sock: string): Promise<void> {
  return new Promise((res, rej) => {
    const c = connect(sock);
    c.once('error', rej);
    c.once('connect', () => c.write(`${JSON.stringify({ id: 1, cmd: 'status' })}\n`));
    c.once('data', () => { c.destroy(); res(); });
  });
}

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
}

interface Run { listeningMs: number; readyMs: number; cpuMs: number; rssMiB: number; pssMiB: number; ussMiB: number }

async function runOnce(entry: string): Promise<Run> {
  const podDir = mkdtempSync(join(tmpdir(), 'kv-lm-'));
  const logFile = join(podDir, 'compute.log');
  const fd = openSync(logFile, 'a');
  const t0 = performance.now();
  const child = spawn(process.execPath, [KV, 'launcher'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, KV_POD_DIR: podDir, KV_DATA_DIR: podDir, KV_BUNDLE: entry } as Record<string, string | undefined> as NodeJS.ProcessEnv,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const sock = join(podDir, 'launcher.sock');
  while (!existsSync(join(podDir, 'launcher.ready'))) {
    await sleep(1);
    if (performance.now() - t0 > 30_000) throw new Error('no launcher.ready in 30 s');
  }
  const listeningMs = performance.now() - t0;
  for (;;) {
    try { await ask(sock); break; } catch { await sleep(2); }
    if (performance.now() - t0 > 30_000) throw new Error('launcher did not answer in 30 s');
  }
  const readyMs = performance.now() - t0;
  const cpu = cpuMs(child.pid!);
  await sleep(1000);
  const mem = memoryOf(child.pid!);
  child.kill('SIGTERM');
  await exited;
  const log = readFileSync(logFile, 'utf8');
  if (!log.split('\n').some((l) => l.startsWith('{') && JSON.parse(l).msg === 'launcher listening')) throw new Error(`no JSON "launcher listening" line in the log:\n${log}`);
  rmSync(podDir, { recursive: true, force: true });
  return { listeningMs, readyMs, cpuMs: cpu, rssMiB: mem.rssKiB / 1024, pssMiB: mem.pssKiB / 1024, ussMiB: mem.ussKiB / 1024 };
}

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const results = new Map<string, Run[]>(builds.map((b) => [b.label, []]));
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`load at start: ${load()}`);
for (let i = 0; i < ROUNDS; i++) for (const b of builds) results.get(b.label)!.push(await runOnce(b.entry));
console.log(`load at end: ${load()}`);
for (const [label, runs] of results) {
  const f = (k: keyof Run, d = 0) => `${median(runs.map((r) => r[k])).toFixed(d)} (${Math.min(...runs.map((r) => r[k])).toFixed(d)}–${Math.max(...runs.map((r) => r[k])).toFixed(d)})`;
  console.log(`${label.padEnd(10)} n=${runs.length} exec→launcher.ready ms ${f('listeningMs')}  exec→answer ms ${f('readyMs')}  CPU ms ${f('cpuMs')}  RSS MiB ${f('rssMiB', 1)}  PSS MiB ${f('pssMiB', 1)}  USS MiB ${f('ussMiB', 1)}`);
}
