import { dirname, join } from 'node:path';
import { ensureDir, killAll, listPodUids, readControl, readKeyedCount, readPids, removeDir, writeControl } from './cgroup-fs';
import { podCgroupName, type PodCgroups } from './pod-cgroups';
import { renderV2Limits, sharesToWeight, type PodLimits } from './pod-limits';

const CONTROLLERS = ['cpu', 'memory'];

/**
 * cgroup v2 (unified): `<node dir>/pod<uid>` with cpu.max, cpu.weight and memory.max. The cpu and memory
 * controllers are enabled in cgroup.subtree_control of every level from `enableFrom` (a cgroup
 * without processes of its own, or the root) down to the node's dir.
 */
export class CgroupV2 implements PodCgroups {
  readonly version = 'v2';

  constructor(
    private readonly nodeDir: string,
    private readonly enableFrom: string,
  ) {}

  get describe(): string {
    return this.nodeDir;
  }

  private dir(uid: string): string {
    return join(this.nodeDir, podCgroupName(uid));
  }

  /** Enable cpu and memory for the children of each level between enableFrom and the node dir. */
  private enableControllers(): void {
    ensureDir(this.nodeDir);
    const levels: string[] = [];
    for (let d = this.nodeDir; ; d = dirname(d)) {
      levels.unshift(d);
      if (d === this.enableFrom || d === dirname(d)) break;
    }
    for (const level of levels) {
      const have = (readControl(level, 'cgroup.subtree_control') ?? '').split(/\s+/);
      const missing = CONTROLLERS.filter((c) => !have.includes(c));
      if (missing.length) writeControl(level, 'cgroup.subtree_control', missing.map((c) => `+${c}`).join(' '));
    }
  }

  setNodeLimits(limits: PodLimits, allNodes?: Pick<PodLimits, 'cpuShares'>): void {
    this.enableControllers();
    for (const [file, value] of Object.entries(renderV2Limits(limits))) writeControl(this.nodeDir, file, value);
    if (allNodes?.cpuShares !== undefined && this.nodeDir !== this.enableFrom) writeControl(dirname(this.nodeDir), 'cpu.weight', String(sharesToWeight(allNodes.cpuShares)));
  }

  ensure(uid: string, limits: PodLimits): void {
    this.enableControllers();
    ensureDir(this.dir(uid));
    for (const [file, value] of Object.entries(renderV2Limits(limits))) writeControl(this.dir(uid), file, value);
  }

  addProcess(uid: string, pid: number): void {
    writeControl(this.dir(uid), 'cgroup.procs', String(pid));
  }

  procsFiles(uid: string): string[] {
    return [join(this.dir(uid), 'cgroup.procs')];
  }

  oomKills(uid: string): number {
    return readKeyedCount(this.dir(uid), 'memory.events', 'oom_kill');
  }

  pids(uid: string): number[] {
    return readPids(this.dir(uid));
  }

  remove(uid: string): boolean {
    killAll(this.dir(uid));
    return removeDir(this.dir(uid));
  }

  removeNode(): boolean {
    return removeDir(this.nodeDir);
  }

  list(): string[] {
    return listPodUids(this.nodeDir);
  }
}
