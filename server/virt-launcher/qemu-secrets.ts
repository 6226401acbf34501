/**
 * What QEMU must not read: the cluster's tokens, CA key, kubeconfigs, the handlers' tokens and every
 * Pod's service-account token and Secret volumes (another Pod's, virt-handler's above all). The
 * launcher and QEMU run as root on a process node (files are 0600 root), so QEMU starts in a mount
 * namespace of its own where those paths are covered (an empty tmpfs over a dir, /dev/null over a
 * file). Nothing else changes: pod dir, images and disks are the same files. The same namespace
 * mounts the hugetlbfs a hugepages VMI needs where the host has none (hugetlbfs.ts) and the tun and
 * vhost-net nodes a QEMU that dropped root needs (qemu-net-devices.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { dataPaths } from '../data-dir';
import type { HugetlbfsMount } from './hugetlbfs';
import { NET_NODES_SCRIPT, type NetDeviceNodes } from './qemu-net-devices';

const HIDE_SCRIPT = [
  // reveal: a tmpfs over a closed dir above the data dir, holding just the data dir (qemu-ownership.ts)
  'if [ "$1" = 1 ]; then',
  '  s=$(mktemp -d /tmp/kv-reveal.XXXXXX) && mount --bind "$3" "$s" && mount -t tmpfs -o mode=0755,size=64k kv-reveal "$2" && mkdir -p "$3" && mount --move "$s" "$3" && rmdir "$s" || exit 125',
  '  shift 2',
  'fi',
  'shift',
  'n=$1; shift',
  'while [ "$n" -gt 0 ]; do',
  '  if [ -d "$1" ]; then mount -t tmpfs -o size=4k,mode=000 kv-hidden "$1"; else mount --bind /dev/null "$1"; fi || exit 125',
  '  n=$((n - 1)); shift',
  'done',
  'm=$1; shift',
  'while [ "$m" -gt 0 ]; do',
  '  mount -t hugetlbfs -o "pagesize=$2" kv-hugepages "$1" || exit 125',
  '  m=$((m - 1)); shift 2',
  'done',
  // the pod network's device nodes for a QEMU that drops root (qemu-net-devices.ts)
  NET_NODES_SCRIPT,
  'exec "$@"',
].join('\n');

/** The secret paths of a data dir that exist now. */
export function secretPaths(dataDir: string): string[] {
  const p = dataPaths(dataDir);
  const out = [p.apiserver, p.kubeconfig].filter((f) => existsSync(f));
  try {
    for (const node of readdirSync(p.nodes)) {
      if (existsSync(p.handlerToken(node))) out.push(p.handlerToken(node));
      out.push(...podFileVolumes(join(p.node(node), 'pods')));
    }
  } catch {
    // no nodes dir
  }
  return out;
}

/**
 * Every Pod's kubelet-written volumes (service-account tokens, Secrets, ConfigMaps): the dirs with
 * the atomic writer's `..data`. Claim links and emptyDirs are not among them, so QEMU keeps its disks.
 */
function podFileVolumes(podsDir: string): string[] {
  const out: string[] = [];
  const list = (dir: string) => { try { return readdirSync(dir); } catch { return []; } };
  for (const uid of list(podsDir)) {
    const volumes = join(podsDir, uid, 'volumes');
    for (const name of list(volumes)) {
      const dir = join(volumes, name);
      if (!lstatSync(dir).isSymbolicLink() && existsSync(join(dir, '..data'))) out.push(dir);
    }
  }
  return out;
}

/**
 * argv that runs `argv` with `paths` covered in a private mount namespace (unshare execs in place:
 * the pid and parent stay the same, so --pdeathsig and the launcher's pid bookkeeping still hold).
 */
export function withHiddenPaths(paths: string[], argv: string[], hugetlbfs: HugetlbfsMount[] = [], reveal?: Reveal, netNodes?: NetDeviceNodes): string[] {
  const nodes = [netNodes?.tun ? '1' : '0', netNodes?.vhost ? '1' : '0'];
  if (paths.length === 0 && hugetlbfs.length === 0 && !reveal && nodes.join('') === '00') return argv;
  const huge = hugetlbfs.flatMap((m) => [m.path, m.pageSizeOption]);
  // under a reveal's tmpfs only the data dir is left: what else it covers is gone already
  const hide = reveal ? paths.filter((p) => !isUnder(p, reveal.cover) || isUnder(p, reveal.keep)) : paths;
  const head = reveal ? ['1', reveal.cover, reveal.keep] : ['0'];
  return ['unshare', '--mount', '--propagation', 'private', '--', 'sh', '-c', HIDE_SCRIPT, 'kv-hide', ...head, String(hide.length), ...hide, String(hugetlbfs.length), ...huge, ...nodes, ...argv];
}

/** QEMU's namespace covers `cover` with a tmpfs that holds only `keep` (qemu-ownership.ts). */
export interface Reveal { cover: string; keep: string }

const isUnder = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);

let probed: boolean | undefined;

/** Whether this process may make mount namespaces (root with CAP_SYS_ADMIN and unshare(1) present). */
export function canHidePaths(): boolean {
  if (probed === undefined) {
    probed = process.getuid?.() === 0 && spawnSync('unshare', ['--mount', '--propagation', 'private', '--', 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0;
  }
  return probed;
}

export const hiddenFromQemu = (dataDir: string): string[] => (canHidePaths() ? secretPaths(dataDir) : []);
