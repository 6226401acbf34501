/**
 * PURE: the two conditions replica sets and pools share (KubeVirt's ReplicaPaused and
 * ReplicaFailure): paused while spec.paused, and the first scaling failure's reason and message
 * kept until a sync succeeds, as KubeVirt keeps it.
 */
import { removeCondition, setCondition, ReplicaSetConditionType, type Condition } from '../../lib/kubevirt';

export interface ReplicaFailure { reason: string; message: string }

export function replicaConditions(conditions: Condition[], paused: { reason: string; message: string } | undefined, failure: ReplicaFailure | undefined, now: Date): Condition[] {
  let out = paused
    ? setCondition(conditions, { type: ReplicaSetConditionType.ReplicaPaused, status: 'True', ...paused }, now)
    : removeCondition(conditions, ReplicaSetConditionType.ReplicaPaused);
  const hadFailure = out.some((c) => c.type === ReplicaSetConditionType.ReplicaFailure);
  if (failure && !hadFailure) out = setCondition(out, { type: ReplicaSetConditionType.ReplicaFailure, status: 'True', reason: failure.reason, message: failure.message }, now);
  else if (!failure) out = removeCondition(out, ReplicaSetConditionType.ReplicaFailure);
  return out;
}
