/**
 * What must change on disk before QEMU runs as an unprivileged user (qemu-user.ts), decided from
 * QEMU's own arguments: the files it opens for writing (the VMI's disks, EFI vars, hugepage dirs)
 * are chowned to that user, as KubeVirt's virt-handler chowns a VMI's files to 107; read-only ones
 * (shared base images, firmware, kernels) must be readable by it as they are, or, inside the data
 * dir, get o+r; every directory on the way must be searchable: inside the data dir the launcher adds
 * o+x (a search bit only: apiserver/ stays 0700, tokens 0600); above it (a data dir under /root,
 * 0700) QEMU's mount namespace covers the highest closed directory with a tmpfs that holds just the
 * data dir (`reveal`), so the host's dirs keep their modes. Anything else the user cannot reach
 * keeps QEMU as root, and says which path.
 */
import { chmodSync, chownSync, lstatSync, readdirSync, statSync, type Stats } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { canAccess } from './qemu-user';

/** A path QEMU opens, from its arguments. */
export interface QemuPath { path: string; readOnly: boolean }

/** (mem-path is a hugetlbfs dir: the launcher checks it, launcher-qemu-user.ts) */
const PATH_FIELDS = ['filename'];
const READ_ONLY_OPTIONS = new Set(['-kernel', '-initrd']);

/** Every file path in QEMU's arguments (JSON -blockdev/-object values, -kernel, -initrd). Pure. */
export function qemuPaths(args: string[]): QemuPath[] {
  const out: QemuPath[] = [];
  const walk = (v: unknown, readOnly: boolean) => {
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    const ro = readOnly || o['read-only'] === true || o.readonly === true;
    for (const f of PATH_FIELDS) if (typeof o[f] === 'string' && (o[f] as string).startsWith('/')) out.push({ path: o[f] as string, readOnly: ro });
    for (const [k, child] of Object.entries(o)) if (k !== 'read-only') walk(child, ro);
  };
  args.forEach((a, i) => {
    if (READ_ONLY_OPTIONS.has(args[i - 1] ?? '')) out.push({ path: a, readOnly: true });
    else if (a.startsWith('{')) {
      try { walk(JSON.parse(a), false); } catch { /* not JSON */ }
    }
  });
  const byPath = new Map<string, QemuPath>();
  for (const p of out) byPath.set(p.path, { path: p.path, readOnly: (byPath.get(p.path)?.readOnly ?? true) && p.readOnly });
  return [...byPath.values()];
}

export interface OwnershipPlan {
  /** chowned to the user (recursively for dirs listed in `recursive`) */
  chown: string[];
  /** dirs that get o+x */
  search: string[];
  /** files that get o+r */
  read: string[];
  /** QEMU's namespace covers `cover` with a tmpfs holding only `keep` (the data dir) */
  reveal?: { cover: string; keep: string };
  /** a path the user cannot reach and the launcher may not open up: QEMU keeps root */
  blocked?: string;
}

type StatFn = (p: string) => Pick<Stats, 'uid' | 'gid' | 'mode'> | undefined;

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const under = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** Every directory from `/` down to `p`'s parent. */
function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let d = dirname(p); ; d = dirname(d)) {
    out.unshift(d);
    if (d === dirname(d)) return out;
  }
}

/**
 * The plan (pure but for `stat`): `owned` are the VMI's own files and dirs (pod dir, disks, TPM
 * state): chowned whatever QEMU's arguments say.
 */
export function planOwnership(o: { uid: number; gid: number; dataDir: string; owned: string[]; paths: QemuPath[]; stat: StatFn }): OwnershipPlan {
  const plan: OwnershipPlan = { chown: [], search: [], read: [] };
  const chown = new Set(o.owned);
  // devices (/dev/urandom, a Block claim's device) are never chowned: the user must have access as they are
  const devices: string[] = [];
  for (const p of o.paths) {
    if (p.readOnly) continue;
    const st = o.stat(p.path);
    if (!st || (st.mode & S_IFMT) === S_IFREG) chown.add(p.path);
    else devices.push(p.path);
  }
  plan.chown = [...chown];
  const can = (st: Pick<Stats, 'uid' | 'gid' | 'mode'>, want: number) => canAccess(st, o.uid, o.gid, want);
  const closedDevice = devices.find((d) => !can(o.stat(d)!, 0o6));
  if (closedDevice) return { ...plan, blocked: closedDevice };
  const search = new Set<string>();
  const read = new Set<string>();
  const check = (path: string, readOnly: boolean): string | undefined => {
    for (const d of ancestors(path)) {
      if (chown.has(d)) continue;
      const st = o.stat(d);
      if (!st || can(st, 0o1)) continue;
      if (under(d, o.dataDir)) search.add(d);
      else if (under(o.dataDir, d) && under(path, o.dataDir)) {
        if (!plan.reveal) plan.reveal = { cover: d, keep: o.dataDir };
        // everything between the cover and the data dir is the tmpfs's own (searchable)
      } else return path;
    }
    if (!readOnly || chown.has(path)) return undefined;
    const st = o.stat(path);
    if (!st || can(st, 0o4)) return undefined;
    if (under(path, o.dataDir)) { read.add(path); return undefined; }
    return path;
  };
  for (const p of [...o.paths, ...o.owned.map((path) => ({ path, readOnly: false }))]) {
    const blocked = check(p.path, p.readOnly);
    if (blocked) { plan.blocked = blocked; break; }
  }
  // the reveal keeps the data dir itself: its own mode still counts, so it is searched as inside
  plan.search = [...search];
  plan.read = [...read];
  return plan;
}

export const statOrUndefined: StatFn = (p) => { try { return statSync(p); } catch { return undefined; } };

/** Carries the plan out (the launcher is root). Dirs in `recursive` are chowned with their contents. */
export function applyOwnership(plan: OwnershipPlan, uid: number, gid: number, recursive: string[] = []): void {
  for (const p of plan.chown) chownIfThere(p, uid, gid, recursive.includes(p));
  for (const d of plan.search) chmodSync(d, (statSync(d).mode & 0o7777) | 0o001);
  for (const f of plan.read) chmodSync(f, (statSync(f).mode & 0o7777) | 0o004);
}

function chownIfThere(p: string, uid: number, gid: number, recursive: boolean): void {
  let st: Stats;
  try { st = lstatSync(p); } catch { return; }
  if (st.isSymbolicLink()) return;
  chownSync(p, uid, gid);
  if (recursive && st.isDirectory()) for (const e of readdirSync(p)) chownIfThere(join(p, e), uid, gid, true);
}
