/**
 * The status a replica set sync writes (pure): replicas and readyReplicas of the active VMIs, the
 * selector as a string (the scale subresource's labelSelectorPath), and KubeVirt's conditions:
 * ReplicaPaused while spec.paused, ReplicaFailure (FailedCreate / FailedDelete) while scaling fails.
 */
import { removeCondition, selectorString, setCondition, ReplicaSetConditionType } from '../../../lib/kubevirt';
import type { VirtualMachineInstance, VirtualMachineInstanceReplicaSet } from '../../../lib/kubevirt';
import { isVMIReady } from './plan-replicas';

export type RSStatus = NonNullable<VirtualMachineInstanceReplicaSet['status']>;

export interface ScaleFailure { reason: 'FailedCreate' | 'FailedDelete'; message: string }

export function computeRSStatus(rs: VirtualMachineInstanceReplicaSet, active: VirtualMachineInstance[], failure: ScaleFailure | undefined, now: Date): RSStatus {
  const old = rs.status ?? {};
  let conditions = old.conditions ?? [];
  conditions = rs.spec.paused
    ? setCondition(conditions, { type: ReplicaSetConditionType.ReplicaPaused, status: 'True', reason: 'Paused', message: 'Controller got paused' }, now)
    : removeCondition(conditions, ReplicaSetConditionType.ReplicaPaused);
  // KubeVirt keeps the first failure's reason and message until a sync succeeds
  const hadFailure = conditions.some((c) => c.type === ReplicaSetConditionType.ReplicaFailure);
  if (failure && !hadFailure) {
    conditions = setCondition(conditions, { type: ReplicaSetConditionType.ReplicaFailure, status: 'True', reason: failure.reason, message: failure.message }, now);
  } else if (!failure) {
    conditions = removeCondition(conditions, ReplicaSetConditionType.ReplicaFailure);
  }
  return {
    replicas: active.length,
    readyReplicas: active.filter(isVMIReady).length,
    labelSelector: selectorString(rs.spec.selector),
    ...(conditions.length ? { conditions } : {}),
  };
}

/** whether the paused condition flips with this status: the SuccessfulPaused / SuccessfulResumed event */
export function pauseTransition(rs: VirtualMachineInstanceReplicaSet, next: RSStatus): 'paused' | 'resumed' | undefined {
  const was = (rs.status?.conditions ?? []).some((c) => c.type === ReplicaSetConditionType.ReplicaPaused);
  const is = (next.conditions ?? []).some((c) => c.type === ReplicaSetConditionType.ReplicaPaused);
  if (was === is) return undefined;
  return is ? 'paused' : 'resumed';
}
