/**
 * A Deployment's status from its ReplicaSets (kube's calculateStatus and progress conditions):
 * replicas, updated, ready, available, unavailable; Available when at least replicas −
 * maxUnavailable Pods are available; Progressing while the new ReplicaSet grows, True with
 * NewReplicaSetAvailable once complete, False with ProgressDeadlineExceeded after the deadline.
 */
import type { V1DeploymentCondition, V1DeploymentStatus } from '@kubernetes/client-node';
import { resolveFenceposts } from './rollout-math';
import type { Deployment, ReplicaSet } from './resources';

const sum = (sets: ReplicaSet[], f: (rs: ReplicaSet) => number | undefined) => sets.reduce((n, rs) => n + (f(rs) ?? 0), 0);

/** every Pod updated and available, and no old Pod left (DeploymentComplete) */
export function rolloutComplete(d: Deployment, status: V1DeploymentStatus): boolean {
  const desired = d.spec?.replicas ?? 1;
  return status.updatedReplicas === desired && status.replicas === desired && status.availableReplicas === desired && (status.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0);
}

function condition(type: string, status: string, reason: string, message: string, now: string, prev?: V1DeploymentCondition): V1DeploymentCondition {
  const same = prev && prev.status === status && prev.reason === reason;
  const keepTransition = prev && prev.status === status;
  return {
    type, status, reason, message,
    lastUpdateTime: (same ? prev.lastUpdateTime : now) as unknown as Date,
    lastTransitionTime: (keepTransition ? prev.lastTransitionTime : now) as unknown as Date,
  };
}

export interface ProgressEvent { newSetCreated?: boolean; scaledOrCreated?: boolean }

export function computeDeploymentStatus(d: Deployment, all: ReplicaSet[], newRS: ReplicaSet | undefined, now: Date, progress: ProgressEvent = {}): V1DeploymentStatus {
  const desired = d.spec?.replicas ?? 1;
  const available = sum(all, (rs) => rs.status?.availableReplicas);
  const total = sum(all, (rs) => rs.spec?.replicas);
  const status: V1DeploymentStatus = {
    observedGeneration: d.metadata?.generation,
    replicas: sum(all, (rs) => rs.status?.replicas),
    updatedReplicas: newRS?.status?.replicas ?? 0,
    readyReplicas: sum(all, (rs) => rs.status?.readyReplicas),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
    ...(d.status?.collisionCount !== undefined ? { collisionCount: d.status.collisionCount } : {}),
  };
  const t = now.toISOString();
  const prev = (type: string) => d.status?.conditions?.find((c) => c.type === type);
  const ru = d.spec?.strategy?.type === 'RollingUpdate' ? d.spec.strategy.rollingUpdate : undefined;
  const maxUnavailable = ru ? resolveFenceposts(ru.maxSurge as number | string | undefined, ru.maxUnavailable as number | string | undefined, desired).unavailable : 0;
  const availableCond = available >= desired - maxUnavailable
    ? condition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', t, prev('Available'))
    : condition('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.', t, prev('Available'));
  const conditions: V1DeploymentCondition[] = [availableCond];
  const progressing = progressingCondition(d, status, newRS, now, progress, prev('Progressing'));
  if (progressing) conditions.push(progressing);
  status.conditions = conditions;
  return status;
}

function progressingCondition(d: Deployment, status: V1DeploymentStatus, newRS: ReplicaSet | undefined, now: Date, progress: ProgressEvent, prev?: V1DeploymentCondition): V1DeploymentCondition | undefined {
  const t = now.toISOString();
  const name = newRS?.metadata?.name ?? '';
  if (d.spec?.paused) return condition('Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused', t, prev);
  if (newRS && rolloutComplete(d, status)) return condition('Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${name}" has successfully progressed.`, t, prev);
  if (progress.newSetCreated && newRS) return condition('Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "${name}"`, t);
  if (progress.scaledOrCreated && newRS) return condition('Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${name}" is progressing.`, t);
  const deadline = d.spec?.progressDeadlineSeconds;
  if (prev?.status === 'True' && prev.reason !== 'NewReplicaSetAvailable' && deadline !== undefined && newRS) {
    const since = new Date(prev.lastUpdateTime as unknown as string).getTime();
    if (since + deadline * 1000 < now.getTime()) return condition('Progressing', 'False', 'ProgressDeadlineExceeded', `ReplicaSet "${name}" has timed out progressing.`, t, prev);
  }
  if (prev && prev.reason === 'NewReplicaSetAvailable' && newRS && prev.message !== `ReplicaSet "${name}" has successfully progressed.`) {
    return condition('Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${name}" is progressing.`, t);
  }
  return prev;
}
