/**
 * Parts of the crash storm (e2e/crash-storm.test.ts): a seeded RNG, the component processes of a
 * `kv up` cluster (what gets SIGKILLed), the processes its Pods run (launchers and QEMUs, found by
 * their working directory: the Pod's dir under the data dir), and writes retried until acknowledged.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { dataPaths } from '../../server/data-dir';
import { callRest, type Endpoint, type RestReply } from './rest';

/** mulberry32: a small deterministic generator, so a failing storm can be replayed from its seed */
export function seededRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A component process `kv up` supervises, named by the argv words that find it. */
export interface Target { name: string; argv: string[] }

/** What the storm kills: kv up's default layout (one shared control-plane process) or --separate-processes. */
export function stormTargets(dataDir: string, nodes: number, opts: { console: boolean; separate: boolean }): Target[] {
  const dd = ['--data-dir', dataDir];
  const out: Target[] = [{ name: 'apiserver', argv: ['apiserver', ...dd] }];
  // embedded mode: virt-api and the console share one `kv control-plane virt-api ... --and console ...` process
  if (!opts.separate && opts.console) out.push({ name: 'virt-api-console', argv: ['control-plane', 'virt-api', 'console', ...dd] });
  else out.push({ name: 'virt-api', argv: ['virt-api', ...dd] }, ...(opts.console ? [{ name: 'console', argv: ['console', ...dd] }] : []));
  if (!opts.separate) return [...out, { name: 'control-plane', argv: ['control-plane', 'scheduler', ...dd] }];
  out.push(...['scheduler', 'controller', 'network', 'storage'].map((n) => ({ name: n, argv: [n, ...dd] })));
  for (let i = 1; i <= nodes; i++) {
    out.push({ name: `node-${i}-kubelet`, argv: ['node', ...dd, '--name', `node-${i}`] });
    out.push({ name: `node-${i}-handler`, argv: ['handler', ...dd, '--node', `node-${i}`] });
  }
  return out;
}

interface Proc { pid: number; argv: string[]; cwd: string }

function processes(): Proc[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((d) => {
    try {
      const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
      let cwd = '';
      try { cwd = readlinkSync(`/proc/${d}/cwd`); } catch { /* exited or not ours */ }
      return argv.length ? [{ pid: Number(d), argv, cwd }] : [];
    } catch {
      return [];
    }
  });
}

/** pids of a target's live processes (normally one; none while kv up restarts it) */
export function pidsOf(t: Target): number[] {
  return processes().filter((p) => t.argv.every((a) => p.argv.includes(a)) && !isZombie(p.pid)).map((p) => p.pid);
}

function isZombie(pid: number): boolean {
  try { return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? true; } catch { return true; }
}

/** A process a Pod of this cluster runs: which node, which Pod, launcher or QEMU. */
export interface PodProcess { pid: number; node: string; podUID: string; kind: 'qemu' | 'launcher' | 'other' }

/** Every live process whose working directory is a Pod dir of this cluster (launchers and QEMUs). */
export function podProcesses(dataDir: string): PodProcess[] {
  const prefix = `${dataPaths(dataDir).nodes}/`;
  return processes().flatMap((p) => {
    if (!p.cwd.startsWith(prefix) || isZombie(p.pid)) return [];
    const m = /^([^/]+)\/pods\/([^/]+)/.exec(p.cwd.slice(prefix.length).replace(/ \(deleted\)$/, ''));
    if (!m) return [];
    const kind = basename(p.argv[0]).startsWith('qemu-system') ? 'qemu' : p.argv.includes('launcher') ? 'launcher' : 'other';
    return [{ pid: p.pid, node: m[1], podUID: m[2], kind }];
  });
}

/** Processes of a stopped cluster that are still alive: anything whose argv or cwd names its data dir. */
export function leftoverProcesses(dataDir: string): number[] {
  return processes().filter((p) => !isZombie(p.pid) && (p.cwd.startsWith(join(dataDir, '/')) || p.argv.some((a) => a.includes(dataDir)))).map((p) => p.pid);
}

/**
 * Sends a write until the API server gives a definite answer: a 2xx (acknowledged) or a 4xx.
 * No answer (connection refused or reset while the API server is down, a timeout) and 5xx (a
 * webhook whose virt-api is down) are retried: every write here is idempotent (merge patches of
 * fixed values; a create retried after a lost answer gets 409, which the caller resolves).
 */
export async function writeUntilAnswered(ep: Endpoint, method: string, path: string, body: unknown, contentType?: string, giveUpMs = 90_000): Promise<RestReply & { attempts: number }> {
  const deadline = Date.now() + giveUpMs;
  for (let attempts = 1; ; attempts++) {
    let reply: RestReply | undefined;
    try { reply = await callRest(ep, method, path, body, contentType); } catch { /* no answer */ }
    if (reply && reply.status < 500) return { ...reply, attempts };
    if (Date.now() > deadline) throw new Error(`${method} ${path}: no definite answer within ${giveUpMs} ms (last ${reply ? `${reply.status} ${JSON.stringify(reply.body)}` : 'no answer'})`);
    await new Promise((r) => setTimeout(r, 300));
  }
}
