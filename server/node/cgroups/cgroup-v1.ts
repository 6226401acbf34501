import { dirname, join } from 'node:path';
import { ensureDir, killAll, listPodUids, readKeyedCount, readPids, removeDir, writeControl } from './cgroup-fs';
import { podCgroupName, type PodCgroups } from './pod-cgroups';
import { renderV1Limits, type PodLimits } from './pod-limits';

export type V1Controller = 'cpu' | 'memory';
export const V1_CONTROLLERS: readonly V1Controller[] = ['cpu', 'memory'];

/**
 * cgroup v1: the node's dir under each controller's hierarchy (cpu, memory); a Pod gets
 * `<node dir>/pod<uid>` in each, with cfs_quota/period, cpu.shares and memory.limit_in_bytes.
 */
export class CgroupV1 implements PodCgroups {
  readonly version = 'v1';

  /** `nodeDirs`: controller → the node's cgroup directory in that hierarchy. */
  constructor(private readonly nodeDirs: Record<V1Controller, string>) {}

  get describe(): string {
    return V1_CONTROLLERS.map((c) => this.nodeDirs[c]).join(', ');
  }

  private dir(c: V1Controller, uid: string): string {
    return join(this.nodeDirs[c], podCgroupName(uid));
  }

  setNodeLimits(limits: PodLimits, allNodes?: Pick<PodLimits, 'cpuShares'>): void {
    this.apply((c) => this.nodeDirs[c], limits);
    if (allNodes?.cpuShares !== undefined) writeControl(dirname(this.nodeDirs.cpu), 'cpu.shares', String(allNodes.cpuShares));
  }

  ensure(uid: string, limits: PodLimits): void {
    this.apply((c) => this.dir(c, uid), limits);
  }

  private apply(dirOf: (c: V1Controller) => string, limits: PodLimits): void {
    const files = renderV1Limits(limits);
    for (const c of V1_CONTROLLERS) {
      const dir = dirOf(c);
      ensureDir(dir);
      for (const [file, value] of Object.entries(files[c])) writeControl(dir, file, value);
    }
  }

  addProcess(uid: string, pid: number): void {
    for (const c of V1_CONTROLLERS) writeControl(this.dir(c, uid), 'cgroup.procs', String(pid));
  }

  procsFiles(uid: string): string[] {
    return V1_CONTROLLERS.map((c) => join(this.dir(c, uid), 'cgroup.procs'));
  }

  oomKills(uid: string): number {
    return readKeyedCount(this.dir('memory', uid), 'memory.oom_control', 'oom_kill');
  }

  pids(uid: string): number[] {
    return [...new Set(V1_CONTROLLERS.flatMap((c) => readPids(this.dir(c, uid))))];
  }

  remove(uid: string): boolean {
    let gone = true;
    for (const c of V1_CONTROLLERS) {
      killAll(this.dir(c, uid));
      gone = removeDir(this.dir(c, uid)) && gone;
    }
    return gone;
  }

  removeNode(): boolean {
    return V1_CONTROLLERS.map((c) => removeDir(this.nodeDirs[c])).every(Boolean);
  }

  list(): string[] {
    return [...new Set(V1_CONTROLLERS.flatMap((c) => listPodUids(this.nodeDirs[c])))];
  }
}
