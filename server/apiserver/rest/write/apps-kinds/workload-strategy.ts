/**
 * The registry strategies of apps/v1 Deployment, ReplicaSet and DaemonSet: defaults on every
 * write (kube defaults every decoded body), an empty status on create, validation.
 */
import type { Strategy } from '../strategies';
import { defaultDaemonSet, defaultDeployment, defaultReplicaSet } from './workload-defaults';
import {
  validateDaemonSet, validateDaemonSetUpdate, validateDeployment, validateDeploymentUpdate, validateReplicaSet, validateReplicaSetUpdate,
} from './workload-validation';

function strategy(applyDefaults: (o: Record<string, unknown>) => void, validate: Strategy['validate'], validateUpdate: Strategy['validateUpdate']): Strategy {
  return {
    prepareForCreate(obj) { applyDefaults(obj); obj.status = {}; },
    prepareForUpdate(obj) { applyDefaults(obj); },
    validate,
    validateUpdate,
  };
}

export const DEPLOYMENT_STRATEGY = strategy(defaultDeployment, validateDeployment, validateDeploymentUpdate);
export const REPLICA_SET_STRATEGY = strategy(defaultReplicaSet, validateReplicaSet, validateReplicaSetUpdate);
export const DAEMON_SET_STRATEGY = strategy(defaultDaemonSet, validateDaemonSet, validateDaemonSetUpdate);
