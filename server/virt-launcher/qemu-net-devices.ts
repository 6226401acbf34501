/**
 * The devices a QEMU on the pod network opens: /dev/net/tun (to attach to the launcher's tap) and,
 * for vhost-net, /dev/vhost-net. When QEMU drops root (qemu-user.ts) the launcher creates the tap
 * owned by QEMU's user (`ip tuntap add ... user UID group GID`, so the tun driver lets that user, and
 * only it, attach), and where a device node is root-only on the host (/dev/net/tun is 0600 without
 * the usual udev rule) QEMU's mount namespace covers /dev/net with a small tmpfs holding its own
 * 0666 nodes (`mknod`): the host's nodes keep their modes, and the tun driver's owner check still
 * limits QEMU to its own tap. A tun node QEMU cannot get keeps it root (TunDeviceNotAccessible);
 * a vhost-net node it cannot get turns vhost off.
 */
import { spawnSync } from 'node:child_process';
import type { Stats } from 'node:fs';
import { accessFor, keepRoot, ROOT_REASONS, type QemuIdentity, type QemuUser } from './qemu-user';

export const TUN_DEVICE = '/dev/net/tun';
export const VHOST_NET_DEVICE = '/dev/vhost-net';

/** Nodes QEMU's namespace makes in its own tmpfs over /dev/net (vhost-net is bound over /dev/vhost-net). */
export interface NetDeviceNodes { tun: boolean; vhost: boolean }

export interface NetDevicePlan {
  /** the user decision, now also kept root when the tap cannot be opened */
  user: QemuUser;
  /** the tap's owner (`ip tuntap add ... user UID group GID`); none when QEMU keeps root */
  tapOwner?: QemuIdentity;
  /** QEMU's netdev uses vhost-net */
  vhost: boolean;
  nodes: NetDeviceNodes;
}

type DeviceStat = Pick<Stats, 'uid' | 'gid' | 'mode'>;

/**
 * PURE but for `canMakeNodes` (asked only when a node is needed): what the pod network's tap needs
 * for `user`. `tun`/`vhost`: the host's device nodes (undefined: not there).
 */
export function planNetDevices(f: { user: QemuUser; tun?: DeviceStat; vhost?: DeviceStat; canMakeNodes: () => boolean }): NetDevicePlan {
  const none = { tun: false, vhost: false };
  const user = f.user;
  if (!user.drop) return { user, vhost: f.vhost !== undefined && user.uid === 0, nodes: none };
  const usable = (st: DeviceStat | undefined) => {
    if (!st) return false;
    const how = accessFor(st, user.uid, user.gid, 0o6);
    return how === 'owner' || how === 'other' || (how === 'group' && (st.gid === user.gid || user.groups.includes(st.gid)));
  };
  const tunNode = !usable(f.tun);
  const vhostNode = f.vhost !== undefined && !usable(f.vhost);
  let makeNodes = false;
  if (tunNode || vhostNode) makeNodes = f.canMakeNodes();
  if (tunNode && !makeNodes) {
    const root = keepRoot(ROOT_REASONS.tun, `${TUN_DEVICE} is not readable and writable by uid ${user.uid} and QEMU's mount namespace cannot make its own node: QEMU runs as root to open the pod network's tap`);
    return { user: root, vhost: f.vhost !== undefined, nodes: none };
  }
  const vhost = f.vhost !== undefined && (!vhostNode || makeNodes);
  // the tmpfs covers all of /dev/net: once it is there, tun needs its own node even when the host's is usable
  const nodes = makeNodes ? { tun: true, vhost: vhostNode } : none;
  return { user, tapOwner: { uid: user.uid, gid: user.gid }, vhost, nodes };
}

/** The shell lines QEMU's namespace runs (as root, before dropping) for `nodes`: $1 tun, $2 vhost (0/1). */
export const NET_NODES_SCRIPT = [
  'tn=$1; vn=$2; shift 2',
  'if [ "$tn" = 1 ]; then mount -t tmpfs -o mode=0755,size=4k kv-netdev /dev/net && mknod -m 0666 /dev/net/tun c 10 200 || exit 125; fi',
  'if [ "$vn" = 1 ]; then mknod -m 0666 /dev/net/vhost-net c 10 238 && mount --bind /dev/net/vhost-net /dev/vhost-net || exit 125; fi',
].join('\n');

let probed: boolean | undefined;

/** Whether a private mount namespace here may put a tmpfs over /dev/net and make a tun node in it (asked once). */
export function canMakeNetNodes(canUseNamespace: boolean): boolean {
  if (!canUseNamespace) return false;
  probed ??= spawnSync('unshare', ['--mount', '--propagation', 'private', '--', 'sh', '-c', `${NET_NODES_SCRIPT}\nexec test -c /dev/net/tun`, 'kv-probe', '1', '0'], { stdio: 'ignore', timeout: 5000 }).status === 0;
  return probed;
}
