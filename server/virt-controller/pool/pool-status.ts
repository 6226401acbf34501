/**
 * The status a pool sync writes (pure): replicas and readyReplicas of its VMs, the selector string
 * (the scale subresource's labelSelectorPath), and KubeVirt's pool conditions: ReplicaPaused
 * (reason SuccessfulPaused) while spec.paused, ReplicaFailure (FailedScaleOut / FailedScaleIn)
 * while scaling fails.
 */
import { removeCondition, selectorString, setCondition, ReplicaSetConditionType } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachinePool } from '../../../lib/kubevirt';
import { isVMReady } from './plan-pool';
import { PoolReason } from './constants';

export type PoolStatus = NonNullable<VirtualMachinePool['status']>;
export interface PoolFailure { reason: typeof PoolReason.FailedScaleOut | typeof PoolReason.FailedScaleIn; message: string }

export function computePoolStatus(pool: VirtualMachinePool, vms: VirtualMachine[], failure: PoolFailure | undefined, now: Date): PoolStatus {
  let conditions = pool.status?.conditions ?? [];
  conditions = pool.spec.paused
    ? setCondition(conditions, { type: ReplicaSetConditionType.ReplicaPaused, status: 'True', reason: PoolReason.SuccessfulPaused, message: 'Pool controller is paused' }, now)
    : removeCondition(conditions, ReplicaSetConditionType.ReplicaPaused);
  const hadFailure = conditions.some((c) => c.type === ReplicaSetConditionType.ReplicaFailure);
  if (failure && !hadFailure) {
    conditions = setCondition(conditions, { type: ReplicaSetConditionType.ReplicaFailure, status: 'True', reason: failure.reason, message: failure.message }, now);
  } else if (!failure) {
    conditions = removeCondition(conditions, ReplicaSetConditionType.ReplicaFailure);
  }
  return {
    replicas: vms.length,
    readyReplicas: vms.filter(isVMReady).length,
    labelSelector: selectorString(pool.spec.selector),
    ...(conditions.length ? { conditions } : {}),
  };
}
