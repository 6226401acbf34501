/**
 * The status a replica set sync writes (pure): replicas and readyReplicas of the active VMIs, the
 * selector as a string (the scale subresource's labelSelectorPath), and KubeVirt's conditions:
 * ReplicaPaused while spec.paused, ReplicaFailure (FailedCreate / FailedDelete) while scaling fails.
 */
import { selectorString, ReplicaSetConditionType } from '../../../lib/kubevirt';
import { replicaConditions } from '../replica-conditions';
import type { VirtualMachineInstance, VirtualMachineInstanceReplicaSet } from '../../../lib/kubevirt';
import { isVMIReady } from './plan-replicas';

export type RSStatus = NonNullable<VirtualMachineInstanceReplicaSet['status']>;

export interface ScaleFailure { reason: 'FailedCreate' | 'FailedDelete'; message: string }

export function computeRSStatus(rs: VirtualMachineInstanceReplicaSet, active: VirtualMachineInstance[], failure: ScaleFailure | undefined, now: Date): RSStatus {
  const paused = rs.spec.paused ? { reason: 'Paused', message: 'Controller got paused' } : undefined;
  // KubeVirt keeps the first failure's reason and message until a sync succeeds
  const conditions = replicaConditions(rs.status?.conditions ?? [], paused, failure, now);
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
