/**
 * PURE: KubeVirt's automatic resource limits (template.go doesVMIRequireAutoResourceLimits,
 * renderresources.go WithAutoMemoryLimits / WithoutDedicatedCPU): when a ResourceQuota in the VMI's
 * namespace limits `limits.memory` (or `limits.cpu`) and the VMI sets no such limit, the launcher
 * Pod gets one, so the quota does not refuse it for lacking limits: memory = the Pod's memory
 * request × the namespace label `alpha.kubevirt.io/auto-memory-limits-ratio` (default 2, values
 * below 1 ignored), cpu = the vCPU count.
 */
import type { VirtualMachineInstance } from '../../../lib/kubevirt';

export const AUTO_MEMORY_LIMITS_RATIO_LABEL = 'alpha.kubevirt.io/auto-memory-limits-ratio';
export const DEFAULT_MEMORY_LIMIT_RATIO = 2;

export interface AutoLimits { memoryRatio?: number; cpu?: boolean }
export interface QuotaLike { metadata?: { namespace?: string }; spec?: { hard?: Record<string, unknown> } }

export function memoryLimitRatio(namespaceLabels: Record<string, string> | undefined): number {
  const raw = namespaceLabels?.[AUTO_MEMORY_LIMITS_RATIO_LABEL];
  const v = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(v) && v >= 1 ? v : DEFAULT_MEMORY_LIMIT_RATIO;
}

export function autoLimitsFor(vmi: VirtualMachineInstance, quotas: QuotaLike[], namespaceLabels?: Record<string, string>): AutoLimits {
  const ns = vmi.metadata.namespace;
  const limits = vmi.spec?.domain?.resources?.limits ?? {};
  const limited = (resource: string) => quotas.some((q) => q.metadata?.namespace === ns && q.spec?.hard?.[`limits.${resource}`] !== undefined);
  const out: AutoLimits = {};
  if (limits.memory === undefined && limited('memory')) out.memoryRatio = memoryLimitRatio(namespaceLabels);
  if (limits.cpu === undefined && limited('cpu')) out.cpu = true;
  return out;
}

/**
 * The `autoLimits` render option both virt-controller loops give launcher Pods (the VMI's own and a
 * migration target): autoLimitsFor over their ResourceQuota and Namespace caches, read per Pod.
 */
export function autoLimitsFromCaches(
  quotas: { list(): QuotaLike[] },
  namespaces: { get(name: string): { metadata?: { labels?: Record<string, string> } } | undefined },
): (vmi: VirtualMachineInstance) => AutoLimits {
  return (vmi) => autoLimitsFor(vmi, quotas.list(), namespaces.get(vmi.metadata.namespace ?? '')?.metadata?.labels);
}
