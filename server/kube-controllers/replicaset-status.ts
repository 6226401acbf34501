/** A ReplicaSet's status from the Pods it owns (kube's calculateStatus). */
import type { V1Pod, V1ReplicaSetCondition, V1ReplicaSetStatus } from '@kubernetes/client-node';
import { selectorMatches } from '../../lib/kubevirt';
import { isPodActive, isPodAvailable, isPodReady } from './pod-availability';
import type { ReplicaSet } from './resources';

export interface ReplicaFailure { reason: 'FailedCreate' | 'FailedDelete'; message: string }

export function computeReplicaSetStatus(rs: ReplicaSet, owned: V1Pod[], failure: ReplicaFailure | undefined, now: Date): V1ReplicaSetStatus {
  const active = owned.filter(isPodActive);
  const minReady = rs.spec?.minReadySeconds ?? 0;
  const templateLabels = rs.spec?.template?.metadata?.labels ?? {};
  const conditions: V1ReplicaSetCondition[] = (rs.status?.conditions ?? []).filter((c) => c.type !== 'ReplicaFailure');
  if (failure) {
    const prev = rs.status?.conditions?.find((c) => c.type === 'ReplicaFailure');
    conditions.push({ type: 'ReplicaFailure', status: 'True', reason: failure.reason, message: failure.message, lastTransitionTime: prev?.lastTransitionTime ?? (now.toISOString() as unknown as Date) });
  }
  return {
    replicas: active.length,
    fullyLabeledReplicas: active.filter((p) => selectorMatches({ matchLabels: templateLabels }, p.metadata?.labels)).length,
    readyReplicas: active.filter(isPodReady).length,
    availableReplicas: active.filter((p) => isPodAvailable(p, minReady, now.getTime())).length,
    observedGeneration: rs.metadata?.generation,
    ...(conditions.length ? { conditions } : {}),
  };
}
