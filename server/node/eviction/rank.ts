/**
 * PURE: which Pod the kubelet evicts first under pressure, and what it tells the Pod (kube's
 * eviction ranking and evictionMessage, in our words).
 */
import type { V1Pod, V1PodCondition } from '@kubernetes/client-node';
import { formatBinaryQuantity, parseQuantity } from '../../../lib/kubevirt/quantity';
import { podRequests } from '../pod-resources';
import { SIGNAL_RESOURCE, thresholdMetText, type EvictionThreshold, type SignalObservation } from './thresholds';

/** kube's Pod status reason for an eviction (PodIsEvicted: phase Failed and this reason). */
export const EVICTED_REASON = 'Evicted';
/** kube's system-critical priority: such Pods are never evicted (kubelettypes.IsCriticalPod). */
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/** A running Pod and what it uses of the starved resource (bytes); undefined when it could not be measured. */
export interface EvictionCandidate {
  pod: V1Pod;
  usage?: number;
}

type Resource = 'memory' | 'ephemeral-storage';

const requestOf = (pod: V1Pod, resource: Resource) => podRequests(pod)[resource] ?? 0;
const priorityOf = (pod: V1Pod) => pod.spec?.priority ?? 0;

export function isCriticalPod(pod: V1Pod): boolean {
  return priorityOf(pod) >= SYSTEM_CRITICAL_PRIORITY;
}

/**
 * Candidates in eviction order: those using more than they request first (a Pod whose usage is
 * unknown counts as such, as kube evicts Pods without stats first), then lower priority first, then
 * the larger usage above request. For memory this puts BestEffort and Burstable Pods over their
 * requests before Guaranteed ones. Critical Pods are left out.
 */
export function rankForEviction(candidates: EvictionCandidate[], resource: Resource): EvictionCandidate[] {
  const exceeds = (c: EvictionCandidate) => c.usage === undefined || c.usage > requestOf(c.pod, resource);
  const above = (c: EvictionCandidate) => (c.usage === undefined ? Number.MAX_SAFE_INTEGER : c.usage - requestOf(c.pod, resource));
  return candidates
    .filter((c) => !isCriticalPod(c.pod))
    .sort((a, b) => Number(exceeds(b)) - Number(exceeds(a)) || priorityOf(a.pod) - priorityOf(b.pod) || above(b) - above(a));
}

/** The container's request of `resource` as kube prints it (`0` when it has none). */
function containerRequestText(pod: V1Pod, index: number, resource: Resource): { text: string; bytes: number } {
  const r = pod.spec?.containers?.[index]?.resources;
  const raw = r?.requests?.[resource] ?? r?.limits?.[resource];
  const bytes = parseQuantity(raw) ?? 0;
  return { text: raw === undefined ? '0' : String(raw), bytes };
}

/**
 * kube's eviction message: "The node was low on resource: memory. Threshold quantity: 100Mi,
 * available: 51200Ki. Container c was using 204800Ki, request is 0, has larger consumption of memory. "
 * (our Pods run one process tree, so its whole usage is the first container's).
 */
export function evictionMessage(c: EvictionCandidate, threshold: EvictionThreshold, observation: SignalObservation | undefined): string {
  const resource = SIGNAL_RESOURCE[threshold.signal];
  let message = `The node was low on resource: ${resource}. ${thresholdMetText(threshold, observation)}`;
  if (c.usage === undefined) return message;
  const name = c.pod.spec?.containers?.[0]?.name ?? '';
  const request = containerRequestText(c.pod, 0, resource);
  if (c.usage > request.bytes) message += `Container ${name} was using ${formatBinaryQuantity(c.usage)}, request is ${request.text}, has larger consumption of ${resource}. `;
  return message;
}

/** The condition kube adds to an evicted Pod (DisruptionTarget, reason TerminationByKubelet). */
export function disruptionCondition(message: string, now: string): V1PodCondition {
  return { type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message, lastTransitionTime: now as never };
}
