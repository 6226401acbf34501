import type { V1Pod } from '@kubernetes/client-node';
import { parseQuantity } from '../../../lib/kubevirt/quantity';

/** What a Pod's cgroup enforces: CPU in millicores and memory in bytes; undefined = unlimited. */
export interface PodLimits {
  cpuMillis?: number;
  memoryBytes?: number;
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
  };
}

/** CFS quota for a millicore limit, as kubelet's MilliCPUToQuota: undefined = no quota. */
export function cfsQuotaUs(cpuMillis: number | undefined): number | undefined {
  if (cpuMillis === undefined || cpuMillis <= 0) return undefined;
  return Math.max(MIN_CFS_QUOTA_US, Math.floor((cpuMillis * CFS_PERIOD_US) / 1000));
}

/** Control files (relative to each controller's pod dir) for cgroup v1: controller → file → value. */
export function renderV1Limits(l: PodLimits): Record<'cpu' | 'memory', Record<string, string>> {
  const quota = cfsQuotaUs(l.cpuMillis);
  return {
    cpu: { 'cpu.cfs_period_us': String(CFS_PERIOD_US), 'cpu.cfs_quota_us': quota === undefined ? '-1' : String(quota) },
    memory: { 'memory.limit_in_bytes': l.memoryBytes === undefined ? '-1' : String(l.memoryBytes) },
  };
}

/** Control files for cgroup v2 (one unified dir): cpu.max "quota period" and memory.max. */
export function renderV2Limits(l: PodLimits): Record<string, string> {
  const quota = cfsQuotaUs(l.cpuMillis);
  return {
    'cpu.max': `${quota === undefined ? 'max' : quota} ${CFS_PERIOD_US}`,
    'memory.max': l.memoryBytes === undefined ? 'max' : String(l.memoryBytes),
  };
}
