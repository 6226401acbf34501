/**
 * PURE: has a not-yet-running target Pod waited too long? Unschedulable for 5 min, or pending for
 * any reason 15 min (KubeVirt's handlePendingPodTimeout): the controller deletes it and the
 * migration fails. Otherwise, how long until the check should run again.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { podCondition } from '../vmi/pod-state';
import type { MigrationSettings } from './constants';

export type PendingVerdict =
  | { expired: true; unschedulable: boolean; message: string }
  | { expired: false; recheckAfterMs?: number };

const at = (t: Date | string | undefined) => (t ? new Date(t).getTime() : NaN);

export function checkPendingTargetPod(pod: V1Pod, now: Date, limits: Pick<MigrationSettings, 'unschedulableTimeoutMs' | 'pendingTimeoutMs'>): PendingVerdict {
  if (pod.status?.phase !== 'Pending' && pod.status?.phase !== undefined) return { expired: false };
  if (pod.metadata?.deletionTimestamp) return { expired: false };
  const t = now.getTime();
  const sched = podCondition(pod, 'PodScheduled');
  if (sched?.status === 'False' && sched.reason === 'Unschedulable') {
    const since = at(sched.lastTransitionTime) || at(pod.metadata?.creationTimestamp);
    const left = since + limits.unschedulableTimeoutMs - t;
    if (left <= 0) return { expired: true, unschedulable: true, message: `Migration target pod was unschedulable for more than ${limits.unschedulableTimeoutMs / 1000} s: ${sched.message ?? ''}`.trim() };
    return { expired: false, recheckAfterMs: left };
  }
  const left = at(pod.metadata?.creationTimestamp) + limits.pendingTimeoutMs - t;
  if (left <= 0) return { expired: true, unschedulable: false, message: `Migration target pod was pending for more than ${limits.pendingTimeoutMs / 1000} s` };
  return { expired: false, recheckAfterMs: Number.isFinite(left) ? left : undefined };
}
