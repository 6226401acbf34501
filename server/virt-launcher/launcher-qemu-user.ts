/**
 * The launcher's step between writing a domain's files and starting swtpm/QEMU: decide the user
 * they run as (qemu-user.ts), open up what that user needs (qemu-ownership.ts), or keep root and
 * say why. Its result goes to both spawns and to DomainStatus.qemuUser.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConverterOutput } from './converter/converter-types';
import type { HugetlbfsMount } from './hugetlbfs';
import { applyOwnership, planOwnership, qemuPaths, statOrUndefined } from './qemu-ownership';
import { canMakeNetNodes, planNetDevices, TUN_DEVICE, VHOST_NET_DEVICE, type NetDeviceNodes, type NetDevicePlan } from './qemu-net-devices';
import type { Reveal } from './qemu-secrets';
import { canAccess, decideQemuUser, keepRoot, ROOT_REASONS, setprivUserArgs, type QemuIdentity, type QemuUser } from './qemu-user';

export interface QemuRunAs {
  user: QemuUser;
  userArgs: string[];
  reveal?: Reveal;
  /** the namespace's own hugetlbfs mounts, owned by the user */
  hugetlbfs: HugetlbfsMount[];
  status: { uid: number; reason?: string; message?: string };
  /** /dev/net nodes QEMU's namespace makes for it (qemu-net-devices.ts) */
  netNodes?: NetDeviceNodes;
}

/** The decision before the domain's files exist (the pod network's tap is made for it): qemu-user.ts. */
export function firstQemuUser(o: { identity: QemuIdentity | undefined; allowPostCopy: boolean; accel: 'kvm' | 'tcg' }): QemuUser {
  return decideQemuUser({
    launcherUid: process.getuid?.() ?? 0, identity: o.identity, allowPostCopy: o.allowPostCopy, accel: o.accel,
    kvmDevice: o.accel === 'kvm' ? statOrUndefined('/dev/kvm') : undefined,
  });
}

/** What the pod network's tap needs for `user`, from this host's device nodes (qemu-net-devices.ts). */
export function podNetDevices(user: QemuUser, canUseNamespace: boolean): NetDevicePlan {
  return planNetDevices({ user, tun: statOrUndefined(TUN_DEVICE), vhost: statOrUndefined(VHOST_NET_DEVICE), canMakeNodes: () => canMakeNetNodes(canUseNamespace) });
}

/** `user`: firstQemuUser's (or podNetDevices') decision; a file QEMU's user cannot reach still keeps root. */
export function prepareQemuUser(o: {
  podDir: string; dataDir?: string; user: QemuUser; netNodes?: NetDeviceNodes;
  plan: ConverterOutput; hugetlbfs: HugetlbfsMount[]; canUseNamespace: boolean;
}): QemuRunAs {
  let user = o.user;
  let reveal: Reveal | undefined;
  let hugetlbfs = o.hugetlbfs;
  if (user.drop) {
    const { uid, gid } = user;
    const blocked = (path: string) => keepRoot(ROOT_REASONS.path, `uid ${uid} cannot reach ${path}: QEMU runs as root`);
    const owned = [o.podDir];
    if (o.plan.tpm) { mkdirSync(o.plan.tpm.stateDir, { recursive: true, mode: 0o700 }); owned.push(o.plan.tpm.stateDir); }
    const own = planOwnership({ uid, gid, dataDir: resolve(o.dataDir ?? o.podDir), owned, paths: qemuPaths(o.plan.args), stat: statOrUndefined });
    const hostHuge = memPaths(o.plan.args).find((p) => !o.hugetlbfs.some((m) => m.path === p) && !writable(p, uid, gid));
    if (own.blocked) user = blocked(own.blocked);
    else if (hostHuge) user = blocked(hostHuge);
    else if (own.reveal && !o.canUseNamespace) user = blocked(own.reveal.keep);
    else {
      applyOwnership(own, uid, gid, o.plan.tpm ? [o.plan.tpm.stateDir] : []);
      reveal = own.reveal;
      hugetlbfs = o.hugetlbfs.map((m) => ({ ...m, pageSizeOption: `${m.pageSizeOption},uid=${uid},gid=${gid},mode=0700` }));
    }
  }
  const status = user.drop ? { uid: user.uid } : { uid: user.uid, reason: user.reason, message: user.message };
  const netNodes = user.drop && (o.netNodes?.tun || o.netNodes?.vhost) ? o.netNodes : undefined;
  return { user, userArgs: setprivUserArgs(user), reveal, hugetlbfs, status, netNodes };
}

/** hugetlbfs dirs in QEMU's memory backends */
function memPaths(args: string[]): string[] {
  return [...args.join('\n').matchAll(/"mem-path":"([^"]+)"/g)].map((m) => m[1]);
}

function writable(dir: string, uid: number, gid: number): boolean {
  const st = statOrUndefined(dir);
  return st !== undefined && canAccess(st, uid, gid, 0o3);
}

/** A hot-plugged disk for a QEMU that dropped root: chowned (or opened up) as its boot disks were; throws when it cannot be. */
export function handOverDisk(runAs: Pick<QemuRunAs, 'user' | 'reveal'>, dataDir: string | undefined, file: string, readOnly: boolean): void {
  const { user } = runAs;
  if (!user.drop) return;
  const own = planOwnership({ uid: user.uid, gid: user.gid, dataDir: resolve(dataDir ?? '/'), owned: [], paths: [{ path: file, readOnly }], stat: statOrUndefined });
  const unreachable = own.blocked ?? (own.reveal && own.reveal.cover !== runAs.reveal?.cover ? file : undefined);
  if (unreachable) throw new Error(`QEMU runs as uid ${user.uid}, which cannot reach ${unreachable}`);
  applyOwnership(own, user.uid, user.gid);
}
