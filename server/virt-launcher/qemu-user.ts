/**
 * Which user QEMU (and swtpm) run as. KubeVirt runs a non-root VMI's QEMU as uid/gid 107 ("qemu");
 * so do we, unless QEMU needs root: a post-copy migration target (userfaultfd, which this kernel
 * only gives to root: `vm.unprivileged_userfaultfd = 0`), a KVM guest whose /dev/kvm the user
 * cannot open, or a file QEMU opens that the user cannot reach. A launcher that is not root changes
 * nothing (QEMU runs as the launcher). Configured by KV_QEMU_UID / KV_QEMU_GID (`root` or 0: never drop).
 */
import type { Stats } from 'node:fs';

export const DEFAULT_QEMU_UID = 107;

/** Why QEMU kept root (DomainStatus.qemuUser.reason, the VMI's QEMURunsAsRoot condition). */
export const ROOT_REASONS = {
  configured: 'QEMUUserDisabled',
  postcopy: 'PostCopyNeedsUserfaultfd',
  kvm: 'KVMDeviceNotAccessible',
  path: 'PathNotAccessible',
  tun: 'TunDeviceNotAccessible',
} as const;

export interface QemuIdentity { uid: number; gid: number }

/** The identity QEMU drops to, from the environment; undefined: never drop (`root` or 0). */
export function qemuIdentityFromEnv(env: Record<string, string | undefined> = process.env): QemuIdentity | undefined {
  const parse = (v: string | undefined, fallback: number, name: string): number => {
    if (v === undefined || v === '') return fallback;
    if (v === 'root') return 0;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a numeric id or "root", not ${JSON.stringify(v)}`);
    return n;
  };
  const uid = parse(env.KV_QEMU_UID, DEFAULT_QEMU_UID, 'KV_QEMU_UID');
  const gid = parse(env.KV_QEMU_GID, uid, 'KV_QEMU_GID');
  return uid === 0 ? undefined : { uid, gid };
}

/** What QEMU runs as: a dropped identity (with extra groups, e.g. /dev/kvm's) or the launcher's own, with why. */
export type QemuUser =
  | { drop: true; uid: number; gid: number; groups: number[] }
  | { drop: false; uid: number; reason?: string; message?: string };

export interface QemuUserFacts {
  launcherUid: number;
  identity: QemuIdentity | undefined;
  /** a migration target that may switch to post-copy */
  allowPostCopy: boolean;
  accel: 'kvm' | 'tcg';
  /** /dev/kvm's stat (KVM guests only) */
  kvmDevice?: Pick<Stats, 'uid' | 'gid' | 'mode'>;
}

/** The decision before any file is looked at (pure). */
export function decideQemuUser(f: QemuUserFacts): QemuUser {
  if (f.launcherUid !== 0) return { drop: false, uid: f.launcherUid };
  if (!f.identity) return keepRoot(ROOT_REASONS.configured, 'KV_QEMU_UID is root: QEMU runs as root');
  if (f.allowPostCopy) {
    return keepRoot(ROOT_REASONS.postcopy, 'this migration target may switch to post-copy, which needs userfaultfd: the kernel gives it only to root here (vm.unprivileged_userfaultfd=0)');
  }
  const groups: number[] = [];
  if (f.accel === 'kvm') {
    const k = f.kvmDevice;
    const access = k && accessFor(k, f.identity.uid, f.identity.gid, 0o6);
    if (!k || access === 'none') return keepRoot(ROOT_REASONS.kvm, `/dev/kvm is not readable and writable by uid ${f.identity.uid}: QEMU runs as root to use KVM`);
    if (access === 'group' && k.gid !== f.identity.gid) groups.push(k.gid);
  }
  return { drop: true, uid: f.identity.uid, gid: f.identity.gid, groups };
}

export function keepRoot(reason: string, message: string): QemuUser {
  return { drop: false, uid: 0, reason, message };
}

/**
 * How `uid`/`gid` get the `want` bits (0o4 read, 0o2 write, 0o1 search, or a sum) on a file:
 * as its owner, through its group, as other, or not at all.
 */
export function accessFor(st: Pick<Stats, 'uid' | 'gid' | 'mode'>, uid: number, gid: number, want: number): 'owner' | 'group' | 'other' | 'none' {
  const has = (shift: number) => ((st.mode >> shift) & want) === want;
  if (st.uid === uid) return has(6) ? 'owner' : 'none';
  if (has(0)) return 'other';
  return has(3) ? 'group' : 'none';
}

/** Whether `uid`/`gid` (no other groups) get the `want` bits on a file. */
export function canAccess(st: Pick<Stats, 'uid' | 'gid' | 'mode'>, uid: number, gid: number, want: number): boolean {
  const how = accessFor(st, uid, gid, want);
  return how === 'owner' || how === 'other' || (how === 'group' && st.gid === gid);
}

/** setpriv's options for a dropped user (after `--pdeathsig`, which setpriv sets after the switch). */
export function setprivUserArgs(user: QemuUser): string[] {
  if (!user.drop) return [];
  return ['--reuid', String(user.uid), '--regid', String(user.gid), user.groups.length ? `--groups=${user.groups.join(',')}` : '--clear-groups'];
}
