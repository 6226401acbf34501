import type { V1Pod } from '@kubernetes/client-node';
import { parseQuantity } from '../../../lib/kubevirt/quantity';

/** What a Pod's cgroup enforces: CPU in millicores and memory in bytes; undefined = unlimited. */
export interface PodLimits {
  cpuMillis?: number;
  memoryBytes?: number;
  /** the group's CPU weight against its siblings, in cgroup v1 shares (v2: converted to cpu.weight); undefined = left as it is */
  cpuShares?: number;
}

/** kubelet's CFS period (100ms) and the smallest quota the kernel takes (1ms). */
export const CFS_PERIOD_US = 100_000;
export const MIN_CFS_QUOTA_US = 1_000;

/**
 * kubelet's pod-level limits: a resource is limited only when every container limits it (the sum of
 * their limits, plus spec.overhead); one unlimited container leaves the Pod unlimited for it.
 */
export function podLimits(pod: V1Pod): PodLimits {
  const containers = pod.spec?.containers ?? [];
  const sum = (name: string): number | undefined => {
    let total = 0;
    for (const c of containers) {
      const v = parseQuantity(c.resources?.limits?.[name]);
      if (v === undefined) return undefined;
      total += v;
    }
    if (containers.length === 0) return undefined;
    return total + (parseQuantity(pod.spec?.overhead?.[name]) ?? 0);
  };
  const cpu = sum('cpu');
  const memory = sum('memory');
  return {
    cpuMillis: cpu === undefined ? undefined : Math.ceil(cpu * 1000),
    memoryBytes: memory === undefined ? undefined : Math.ceil(memory),
    cpuShares: milliCpuToShares(podCpuRequestMillis(pod)),
  };
}

/** kubelet's bounds for cpu.shares (MinShares, MaxShares) and what one CPU is worth */
export const MIN_SHARES = 2;
export const MAX_SHARES = 262_144;
const SHARES_PER_CPU = 1024;

/** kubelet's MilliCPUToShares: 1024 shares per CPU requested, at least 2 (a Pod that requests nothing gets 2). */
export function milliCpuToShares(cpuMillis: number): number {
  if (cpuMillis <= 0) return MIN_SHARES;
  return Math.min(MAX_SHARES, Math.max(MIN_SHARES, Math.floor((cpuMillis * SHARES_PER_CPU) / 1000)));
}

/** kube's CpuSharesToCpuWeight: the v1 shares range [2, 262144] mapped onto v2's cpu.weight [1, 10000]. */
export function sharesToWeight(shares: number): number {
  return 1 + Math.floor(((shares - MIN_SHARES) * 9999) / (MAX_SHARES - MIN_SHARES));
}

/**
 * The CPU a Pod requests, as kubelet sizes its cgroup's shares: the containers' requests summed (a
 * limit alone counts as the request, as kube's defaulting makes it), or the largest init
 * container's if more, plus spec.overhead.
 */
export function podCpuRequestMillis(pod: V1Pod): number {
  const requestOf = (c: { resources?: { requests?: Record<string, string>; limits?: Record<string, string> } }) =>
    parseQuantity(c.resources?.requests?.cpu ?? c.resources?.limits?.cpu) ?? 0;
  const sum = (pod.spec?.containers ?? []).reduce((a, c) => a + requestOf(c), 0);
  const init = Math.max(0, ...(pod.spec?.initContainers ?? []).map(requestOf));
  return Math.ceil((Math.max(sum, init) + (parseQuantity(pod.spec?.overhead?.cpu) ?? 0)) * 1000);
}

/** CFS quota for a millicore limit, as kubelet's MilliCPUToQuota: undefined = no quota. */
export function cfsQuotaUs(cpuMillis: number | undefined): number | undefined {
  if (cpuMillis === undefined || cpuMillis <= 0) return undefined;
  return Math.max(MIN_CFS_QUOTA_US, Math.floor((cpuMillis * CFS_PERIOD_US) / 1000));
}

/** Control files (relative to each controller's pod dir) for cgroup v1: controller → file → value (cpu.shares when set). */
export function renderV1Limits(l: PodLimits): Record<'cpu' | 'memory', Record<string, string>> {
  const quota = cfsQuotaUs(l.cpuMillis);
  return {
    cpu: {
      'cpu.cfs_period_us': String(CFS_PERIOD_US), 'cpu.cfs_quota_us': quota === undefined ? '-1' : String(quota),
      ...(l.cpuShares === undefined ? {} : { 'cpu.shares': String(l.cpuShares) }),
    },
    memory: { 'memory.limit_in_bytes': l.memoryBytes === undefined ? '-1' : String(l.memoryBytes) },
  };
}

/** Control files for cgroup v2 (one unified dir): cpu.max "quota period", memory.max and cpu.weight. */
export function renderV2Limits(l: PodLimits): Record<string, string> {
  const quota = cfsQuotaUs(l.cpuMillis);
  return {
    'cpu.max': `${quota === undefined ? 'max' : quota} ${CFS_PERIOD_US}`,
    'memory.max': l.memoryBytes === undefined ? 'max' : String(l.memoryBytes),
    ...(l.cpuShares === undefined ? {} : { 'cpu.weight': String(sharesToWeight(l.cpuShares)) }),
  };
}
