/** kube's podutil: which Pods count as active, ready and available. */
import type { V1Pod } from '@kubernetes/client-node';

/** not finished and not being deleted (controller.FilterActivePods) */
export function isPodActive(pod: V1Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

function readyCondition(pod: V1Pod) {
  return pod.status?.conditions?.find((c) => c.type === 'Ready');
}

export function isPodReady(pod: V1Pod): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** ready for at least minReadySeconds (the Ready condition's lastTransitionTime) */
export function isPodAvailable(pod: V1Pod, minReadySeconds: number, now: number): boolean {
  const c = readyCondition(pod);
  if (c?.status !== 'True') return false;
  if (minReadySeconds <= 0) return true;
  const since = c.lastTransitionTime ? new Date(c.lastTransitionTime as unknown as string).getTime() : NaN;
  return Number.isFinite(since) && since + minReadySeconds * 1000 <= now;
}

/** how long until a ready Pod becomes available (for a requeue), or undefined if none is waiting */
export function nextAvailableIn(pods: V1Pod[], minReadySeconds: number, now: number): number | undefined {
  if (minReadySeconds <= 0) return undefined;
  let soonest: number | undefined;
  for (const p of pods) {
    const c = readyCondition(p);
    if (c?.status !== 'True' || !c.lastTransitionTime) continue;
    const at = new Date(c.lastTransitionTime as unknown as string).getTime() + minReadySeconds * 1000;
    if (at > now && (soonest === undefined || at - now < soonest)) soonest = at - now;
  }
  return soonest;
}
