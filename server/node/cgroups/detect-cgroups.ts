import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CgroupV1, V1_CONTROLLERS, type V1Controller } from './cgroup-v1';
import { CgroupV2 } from './cgroup-v2';
import { pinLayout } from './layout-pin';
import type { PodCgroups } from './pod-cgroups';

/** Where the host mounts cgroups and where this process sits in them. */
export interface CgroupLayout {
  version: 'v1' | 'v2';
  /** v1: controller → its hierarchy's dir holding this process; v2: the unified dir holding it. */
  v1?: Record<V1Controller, string>;
  v2?: string;
}

interface Mount {
  point: string;
  type: string;
  options: string[];
}

function parseMounts(text: string): Mount[] {
  return text
    .split('\n')
    .map((l) => l.split(' '))
    .filter((f) => f.length >= 4)
    .map(([, point, type, opts]) => ({ point: point.replace(/\\040/g, ' '), type, options: opts.split(',') }));
}

/** /proc/self/cgroup: `id:controllers:path` → controller (or '' for v2) → path. */
function parseSelfCgroup(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line.trim());
    if (!m) continue;
    if (m[1] === '') out.set('', m[2]);
    for (const c of m[1].split(',')) if (c) out.set(c, m[2]);
  }
  return out;
}

/**
 * The layout from /proc/self/mounts and /proc/self/cgroup: v1 when cpu and memory are v1
 * controllers (also on hybrid hosts, where the unified mount has no controllers), else v2 when a
 * cgroup2 mount offers them (`controllersOf` reads its cgroup.controllers), else undefined.
 */
export function detectLayout(mountsText: string, selfCgroupText: string, controllersOf: (dir: string) => string): CgroupLayout | undefined {
  const mounts = parseMounts(mountsText);
  const self = parseSelfCgroup(selfCgroupText);
  const v1: Partial<Record<V1Controller, string>> = {};
  for (const c of V1_CONTROLLERS) {
    const m = mounts.find((x) => x.type === 'cgroup' && x.options.includes(c));
    const path = self.get(c);
    if (m && path !== undefined) v1[c] = resolve(join(m.point, path));
  }
  if (v1.cpu && v1.memory) return { version: 'v1', v1: { cpu: v1.cpu, memory: v1.memory } };
  const unified = mounts.find((x) => x.type === 'cgroup2');
  const path = self.get('');
  if (unified && path !== undefined) {
    const have = controllersOf(unified.point).split(/\s+/);
    if (have.includes('cpu') && have.includes('memory')) return { version: 'v2', v2: resolve(join(unified.point, path)) };
  }
  return undefined;
}

/** The node's own cgroup name: one per node and data dir, so two clusters on one host never share. */
export function nodeCgroupName(nodeName: string, dataDir: string): string {
  return join('kubevirt-ts', `${nodeName}-${createHash('sha256').update(dataDir).digest('hex').slice(0, 8)}`);
}

export function podCgroupsFor(layout: CgroupLayout, nodeName: string, dataDir: string): PodCgroups {
  const name = nodeCgroupName(nodeName, dataDir);
  if (layout.version === 'v1') return new CgroupV1({ cpu: join(layout.v1!.cpu, name), memory: join(layout.v1!.memory, name) });
  return new CgroupV2(join(layout.v2!, name), layout.v2!);
}

const readOr = (p: string) => {
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '';
  }
};

/** This process's layout on this host, or undefined where the host offers none we can use. */
export function detectHostLayout(): CgroupLayout | undefined {
  return detectLayout(readOr('/proc/self/mounts'), readOr('/proc/self/cgroup'), (dir) => readOr(join(dir, 'cgroup.controllers')));
}

/** This host's Pod cgroups for a node (layout pinned in the node dir when given), or undefined. */
export function detectPodCgroups(nodeName: string, dataDir: string, nodeDir?: string): PodCgroups | undefined {
  const layout = nodeDir ? pinLayout(nodeDir, detectHostLayout) : detectHostLayout();
  return layout && podCgroupsFor(layout, nodeName, dataDir);
}
