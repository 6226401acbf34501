/**
 * The processes of a `kv up` cluster and their memory, from /proc: the `kv up` process of a data dir
 * and everything below it (launcher Pods and their QEMUs are the kubelets' children), a readable
 * label per process, and RSS / PSS / USS (smaps_rollup: shared pages split between their users;
 * private pages, what an exit would free). Used by the footprint and density benches.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectLayout } from '../server/node/cgroups/detect-cgroups';
import { readMemoryUsage, type MemoryUsage } from '../server/node/cgroups/memory-usage';

export interface Proc { pid: number; ppid: number; cmd: string[] }

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { pid, ppid, cmd };
  } catch { return undefined; }
}

function allProcs(): Proc[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((d) => readProc(Number(d))).filter((p): p is Proc => !!p);
}

/** the `kv up` process of this data dir and every process below it (launcher Pods are the kubelets' children) */
export function clusterProcs(dataDir: string): Proc[] {
  const procs = allProcs();
  const root = procs.find((p) => p.cmd.includes('up') && p.cmd.includes(dataDir));
  if (!root) throw new Error(`no kv up process for ${dataDir}`);
  const children = new Map<number, Proc[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: Proc[] = [];
  const walk = (p: Proc) => { out.push(p); for (const c of children.get(p.pid) ?? []) walk(c); };
  walk(root);
  return out;
}

/** a readable name: `kv <subcommand>` (+ its node), qemu, or the program */
export function labelOf(cmd: string[]): string {
  if (cmd[0]?.includes('qemu-system')) return 'qemu';
  const kv = cmd.findIndex((a) => a.endsWith('kv.mjs'));
  if (kv >= 0) {
    const sub = cmd[kv + 1] ?? '?';
    const node = (flag: string) => { const i = cmd.indexOf(flag); return i >= 0 ? ` ${cmd[i + 1]}` : ''; };
    if (sub === 'node') return `kubelet${node('--name')}`;
    if (sub === 'handler') return `handler${node('--node')}`;
    if (sub === 'control-plane' && cmd.includes('virt-api')) return 'virt-api+console';
    return sub;
  }
  return cmd[0]?.split('/').pop() ?? '?';
}

export function memoryOf(pid: number): { rssKiB: number; pssKiB: number; ussKiB: number } {
  const field = (text: string, name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  let rssKiB = 0; let pssKiB = 0; let ussKiB = 0;
  try { rssKiB = field(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS'); } catch { /* gone */ }
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    pssKiB = field(rollup, 'Pss');
    ussKiB = field(rollup, 'Private_Clean') + field(rollup, 'Private_Dirty');
  } catch { /* gone or not ours */ }
  return { rssKiB, pssKiB, ussKiB };
}


const readOr = (p: string) => { try { return readFileSync(p, 'utf8'); } catch { return ''; } };

/**
 * The memory of the Pod cgroup a process sits in (a launcher's: its Pod's, QEMU included), or undefined
 * when it sits in none we can read. `cgroup` is the dir, so callers count each Pod once.
 */
export function podCgroupMemoryOf(pid: number): (MemoryUsage & { cgroup: string }) | undefined {
  const layout = detectLayout(readOr('/proc/self/mounts'), readOr(`/proc/${pid}/cgroup`), (dir) => readOr(join(dir, 'cgroup.controllers')));
  const dir = layout?.version === 'v1' ? layout.v1?.memory : layout?.v2;
  if (!layout || !dir || !/\/pod[^/]+$/.test(dir)) return undefined;
  const usage = readMemoryUsage(dir, layout.version);
  return usage && { ...usage, cgroup: dir };
}
