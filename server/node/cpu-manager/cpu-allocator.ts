/**
 * PURE: kubelet's static CPU manager policy, the part that picks CPUs. The reserved CPUs (CPU 0 by
 * default, as kubelet's --reserved-cpus) are never given away; a Pod gets CPUs only from what no
 * other Pod holds, lowest numbers first; the shared pool (for every other Pod) is what is left.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { parseQuantity } from '../../../lib/kubevirt/quantity';

export interface CpuState {
  /** every CPU of the host */
  all: number[];
  /** kept for the system and non-exclusive Pods, never handed out */
  reserved: number[];
  /** pod key (`<node>/<uid>`) → its exclusive CPUs */
  assignments: Record<string, number[]>;
}

/** kube's message when a Pod wants more exclusive CPUs than are free (UnexpectedAdmissionError). */
export const notEnoughCpus = (want: number, free: number) => `Not enough cpus available to satisfy request: requested=${want}, available=${free}`;

export function freeCpus(s: CpuState): number[] {
  const taken = new Set([...s.reserved, ...Object.values(s.assignments).flat()]);
  return s.all.filter((c) => !taken.has(c));
}

/** The CPUs Pods without exclusive CPUs share: all but the assigned ones (the reserved stay in). */
export function sharedPool(s: CpuState): number[] {
  const taken = new Set(Object.values(s.assignments).flat());
  return s.all.filter((c) => !taken.has(c));
}

/** The new state with `key` holding `count` CPUs (its existing assignment is kept), or why not. */
export function allocate(s: CpuState, key: string, count: number): { state: CpuState; cpus: number[] } | { error: string } {
  const held = s.assignments[key];
  if (held && held.length === count) return { state: s, cpus: held };
  const rest = { ...s, assignments: { ...s.assignments } };
  delete rest.assignments[key];
  const free = freeCpus(rest);
  if (free.length < count) return { error: notEnoughCpus(count, free.length) };
  const cpus = free.slice(0, count);
  return { state: { ...rest, assignments: { ...rest.assignments, [key]: cpus } }, cpus };
}

export function release(s: CpuState, key: string): CpuState {
  if (!(key in s.assignments)) return s;
  const assignments = { ...s.assignments };
  delete assignments[key];
  return { ...s, assignments };
}

/**
 * How many exclusive CPUs kubelet's static policy gives a container (the first: the one a process
 * node runs): the Pod must be Guaranteed (every container limits cpu and memory, requests equal to
 * limits) and the container's CPUs whole; else 0 (it runs on the shared pool).
 */
export function exclusiveCpuCount(pod: V1Pod, index = 0): number {
  const containers = pod.spec?.containers ?? [];
  if (!containers[index]) return 0;
  for (const c of [...containers, ...(pod.spec?.initContainers ?? [])]) {
    const lim = c.resources?.limits ?? {};
    const req = c.resources?.requests ?? {};
    for (const r of ['cpu', 'memory']) {
      const l = parseQuantity(lim[r]);
      if (l === undefined) return 0;
      if (req[r] !== undefined && parseQuantity(req[r]) !== l) return 0;
    }
  }
  const cpu = parseQuantity(containers[index].resources!.limits!.cpu)!;
  return Number.isInteger(cpu) ? cpu : 0;
}
