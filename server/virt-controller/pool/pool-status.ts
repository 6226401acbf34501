/**
 * The status a pool sync writes (pure): replicas and readyReplicas of its VMs, the selector string
 * (the scale subresource's labelSelectorPath), and KubeVirt's pool conditions: ReplicaPaused
 * (reason SuccessfulPaused) while spec.paused, ReplicaFailure (FailedScaleOut / FailedScaleIn)
 * while scaling fails.
 */
import { selectorString } from '../../../lib/kubevirt';
import { replicaConditions } from '../replica-conditions';
import type { VirtualMachine, VirtualMachinePool } from '../../../lib/kubevirt';
import { isVMReady } from './plan-pool';
import { PoolReason } from './constants';

export type PoolStatus = NonNullable<VirtualMachinePool['status']>;
export interface PoolFailure { reason: typeof PoolReason.FailedScaleOut | typeof PoolReason.FailedScaleIn; message: string }

export function computePoolStatus(pool: VirtualMachinePool, vms: VirtualMachine[], failure: PoolFailure | undefined, now: Date): PoolStatus {
  const paused = pool.spec.paused ? { reason: PoolReason.SuccessfulPaused, message: 'Pool controller is paused' } : undefined;
  const conditions = replicaConditions(pool.status?.conditions ?? [], paused, failure, now);
  return {
    replicas: vms.length,
    readyReplicas: vms.filter(isVMReady).length,
    labelSelector: selectorString(pool.spec.selector),
    ...(conditions.length ? { conditions } : {}),
  };
}
