import type { PodLimits } from './pod-limits';

/** Name of a Pod's cgroup under the node's cgroup (kubelet names them pod<uid>). */
export const podCgroupName = (uid: string) => `pod${uid}`;
export const POD_CGROUP_RE = /^pod([A-Za-z0-9-]+)$/;

/**
 * One cgroup per Pod under the node's own cgroup, whatever the host mounts (v1 controllers or the v2
 * unified hierarchy). Every method is safe to call again; failures throw with the path involved.
 */
export interface PodCgroups {
  readonly version: 'v1' | 'v2';
  /** Where this node's Pod cgroups live (per controller on v1), for logs and docs. */
  readonly describe: string;
  /**
   * Limit everything this node's Pods may use together (kubelet's kubepods cgroup = allocatable);
   * `allNodes` sizes the `kubevirt-ts` group above every node's (its CPU weight: the machine's CPUs).
   */
  setNodeLimits(limits: PodLimits, allNodes?: Pick<PodLimits, 'cpuShares'>): void;
  /** Create (or update) the Pod's cgroup with its limits. */
  ensure(uid: string, limits: PodLimits): void;
  /** Move a process (and so everything it spawns later) into the Pod's cgroup. */
  addProcess(uid: string, pid: number): void;
  /** The `cgroup.procs` files a process writes its pid to, to join the Pod's cgroup itself. */
  procsFiles(uid: string): string[];
  /** How many processes the kernel's OOM killer has killed in the Pod's cgroup so far. */
  oomKills(uid: string): number;
  /** Pids still in the Pod's cgroup. */
  pids(uid: string): number[];
  /** SIGKILL what is left in the Pod's cgroup and remove it; true once it is gone. */
  remove(uid: string): boolean;
  /** UIDs of the Pod cgroups that exist under this node. */
  list(): string[];
  /** Remove the node's own (empty) cgroup dirs; false while Pod cgroups remain. */
  removeNode(): boolean;
}
