/**
 * The CPU manager's sets as cpuset cgroups, next to the Pod cgroups (cpu, memory): the node's dir
 * `<cpuset hierarchy>/<this process's cpuset cgroup>/kubevirt-ts/<node>-<hash>/pod<uid>` on v1, or
 * the Pod's unified dir with the cpuset controller enabled on v2. v1 dirs start with empty
 * cpuset.cpus/mems, so each level is given its parent's before use. The kubelet also sets the
 * container's affinity (cpu-affinity.ts); the cgroup is what keeps a process from widening it, and it
 * outlives a kubelet restart. Best effort: where the host has no cpuset controller, affinity alone.
 */
import { dirname, join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { ensureDir, listPodUids, readControl, removeDir, writeControl } from './cgroup-fs';
import { nodeCgroupName } from './detect-cgroups';
import { podCgroupName } from './pod-cgroups';

export interface CpusetCgroups {
  readonly version: 'v1' | 'v2';
  readonly describe: string;
  /** Put the Pod's processes on these CPUs (creating its cpuset cgroup). */
  place(uid: string, pids: number[], cpus: string): void;
  /** Remove the Pod's cpuset cgroup; true once it is gone. */
  remove(uid: string): boolean;
  /** UIDs of the Pods with a cpuset cgroup under this node. */
  list(): string[];
  /** Remove the node's own (empty) dir; false while Pod dirs remain. */
  removeNode(): boolean;
}

const readOr = (p: string) => { try { return readFileSync(p, 'utf8'); } catch { return ''; } };

/** Every level from `top` (exclusive) down to `dir` (inclusive). */
function levelsBelow(top: string, dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; d !== top && d !== dirname(d); d = dirname(d)) out.unshift(d);
  return out;
}

export class CpusetV1 implements CpusetCgroups {
  readonly version = 'v1';
  constructor(private readonly root: string, private readonly nodeDir: string) {}

  get describe(): string {
    return this.nodeDir;
  }

  private prepare(dir: string): void {
    for (const level of levelsBelow(this.root, dir)) {
      ensureDir(level);
      for (const f of ['cpuset.mems', 'cpuset.cpus']) {
        if (!(readControl(level, f) ?? '').trim()) writeControl(level, f, (readControl(dirname(level), f) ?? '').trim());
      }
    }
  }

  place(uid: string, pids: number[], cpus: string): void {
    const dir = join(this.nodeDir, podCgroupName(uid));
    this.prepare(dir);
    writeControl(dir, 'cpuset.cpus', cpus);
    for (const pid of pids) writeControl(dir, 'cgroup.procs', String(pid));
  }

  remove(uid: string): boolean {
    return removeDir(join(this.nodeDir, podCgroupName(uid)));
  }

  list(): string[] {
    return listPodUids(this.nodeDir);
  }

  removeNode(): boolean {
    const gone = removeDir(this.nodeDir);
    if (gone) removeDir(dirname(this.nodeDir)); // kubevirt-ts/, once no other node of any cluster uses it
    return gone;
  }
}

/** v2: the Pod cgroup is the unified one; cpuset is enabled from `enableFrom` down to the Pod's parent. */
class CpusetV2 implements CpusetCgroups {
  readonly version = 'v2';
  constructor(private readonly enableFrom: string, private readonly nodeDir: string) {}

  get describe(): string {
    return this.nodeDir;
  }

  place(uid: string, _pids: number[], cpus: string): void {
    const dir = join(this.nodeDir, podCgroupName(uid));
    for (const level of [this.enableFrom, ...levelsBelow(this.enableFrom, this.nodeDir)]) {
      if (!(readControl(level, 'cgroup.subtree_control') ?? '').split(/\s+/).includes('cpuset')) writeControl(level, 'cgroup.subtree_control', '+cpuset');
    }
    writeControl(dir, 'cpuset.cpus', cpus); // the processes are already in the Pod's cgroup
  }

  // the Pod's unified cgroup is cgroup-v2.ts's: it goes with the Pod
  remove(): boolean {
    return true;
  }

  list(): string[] {
    return [];
  }

  removeNode(): boolean {
    return true;
  }
}

/** The cpuset cgroups of a node on this host, or undefined where there is no cpuset controller. */
export function detectCpusetCgroups(nodeName: string, dataDir: string): CpusetCgroups | undefined {
  const mounts = readOr('/proc/self/mounts').split('\n').map((l) => l.split(' '));
  const self = readOr('/proc/self/cgroup').split('\n');
  const name = nodeCgroupName(nodeName, dataDir);
  const v1 = mounts.find((m) => m[2] === 'cgroup' && (m[3] ?? '').split(',').includes('cpuset'));
  const v1Path = self.map((l) => /^\d+:([^:]*):(.*)$/.exec(l)).find((m) => m && m[1].split(',').includes('cpuset'))?.[2];
  if (v1 && v1Path !== undefined) {
    const root = resolve(join(v1[1], v1Path));
    return new CpusetV1(root, join(root, name));
  }
  const unified = mounts.find((m) => m[2] === 'cgroup2');
  const v2Path = self.map((l) => /^0::(.*)$/.exec(l)).find(Boolean)?.[1];
  if (unified && v2Path !== undefined && readOr(join(unified[1], 'cgroup.controllers')).split(/\s+/).includes('cpuset')) {
    const top = resolve(join(unified[1], v2Path));
    return new CpusetV2(top, join(top, name));
  }
  return undefined;
}
