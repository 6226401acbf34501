/**
 * A container's volumeMounts as bind mounts (pure): each mount's host source (the volume's dir in
 * the pod dir, a hostPath, a claim's PersistentVolume) plus its subPath or $(VAR)-expanded
 * subPathExpr, the target inside the container, and readOnly. Parents before children, as a
 * runtime mounts them, so a subPath file can sit inside an emptyDir mounted above it.
 */
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import type { V1Container } from '@kubernetes/client-node';
import { expandVars } from './pod-env';

export interface BindMount { source: string; target: string; readOnly: boolean }

export class MountPlanError extends Error {}

/** `volumePaths`: volume name → its host path (volumes this node cannot give are absent) */
export function planBindMounts(container: V1Container, volumePaths: Map<string, string>, env: Record<string, string>): BindMount[] {
  const out: BindMount[] = [];
  for (const m of container.volumeMounts ?? []) {
    const base = volumePaths.get(m.name);
    if (base === undefined) throw new MountPlanError(`volume "${m.name}" of container "${container.name}" cannot be mounted on a process node`);
    const sub = m.subPathExpr ? expandVars(m.subPathExpr, env) : m.subPath ?? '';
    if (sub && (sub.startsWith('/') || sub.split('/').includes('..'))) throw new MountPlanError(`subPath "${sub}" of volume "${m.name}" must be a relative path without '..'`);
    if (!m.mountPath.startsWith('/')) throw new MountPlanError(`mountPath "${m.mountPath}" of volume "${m.name}" must be absolute`);
    out.push({ source: sub ? join(base, sub) : base, target: normalize(m.mountPath), readOnly: Boolean(m.readOnly) });
  }
  const depth = (p: string) => p.split('/').filter(Boolean).length;
  return out.sort((a, b) => depth(a.target) - depth(b.target));
}

/**
 * `file args` run in a private mount namespace with the mounts in place (util-linux unshare and a
 * POSIX shell; paths are arguments, never spliced into the script). A missing subPath source is made
 * as a dir (as the kubelet does); a missing mount point is made (a dir, or an empty file for a file
 * source), on the host's filesystem when no mount above covers it.
 */
export function wrapInMountNamespace(mounts: BindMount[], file: string, args: string[]): { file: string; args: string[] } {
  if (mounts.length === 0) return { file, args };
  const script = [
    'set -e',
    'n=$1; shift',
    'while [ "$n" -gt 0 ]; do',
    '  src=$1; dst=$2; ro=$3; shift 3; n=$((n - 1))',
    '  [ -e "$src" ] || mkdir -p "$src"',
    '  if [ -d "$src" ]; then mkdir -p "$dst"; else mkdir -p "$(dirname "$dst")"; [ -e "$dst" ] || : > "$dst"; fi',
    '  mount --bind "$src" "$dst"',
    '  if [ "$ro" = ro ]; then mount -o remount,bind,ro "$dst"; fi',
    'done',
    'exec "$@"',
  ].join('\n');
  const triples = mounts.flatMap((m) => [m.source, m.target, m.readOnly ? 'ro' : 'rw']);
  return { file: 'unshare', args: ['--mount', '--propagation', 'private', '--', '/bin/sh', '-c', script, 'mounts', String(mounts.length), ...triples, file, ...args] };
}

/** the env variable a component reads to find its mount points under the fallback root */
export const CONTAINER_ROOT_ENV = 'KV_CONTAINER_ROOT';

/**
 * Without root there is no mount namespace: each mount becomes a link `<root><mountPath>` → its
 * source (readOnly not enforced), and the container is told the root in KV_CONTAINER_ROOT.
 */
export function linkMountsUnder(root: string, mounts: BindMount[]): void {
  rmSync(root, { recursive: true, force: true });
  for (const m of mounts) {
    const at = join(root, m.target);
    mkdirSync(dirname(at), { recursive: true });
    rmSync(at, { recursive: true, force: true });
    symlinkSync(m.source, at);
  }
}
