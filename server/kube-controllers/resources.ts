/** The apps/v1 kinds the workload controllers own, and the shapes of them they read. */
import type { V1DaemonSet, V1Deployment, V1ReplicaSet } from '@kubernetes/client-node';
import type { ResourceDescriptor } from '../kube/resources';

export const DeploymentResource: ResourceDescriptor = { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true };
export const ReplicaSetResource: ResourceDescriptor = { group: 'apps', version: 'v1', plural: 'replicasets', kind: 'ReplicaSet', namespaced: true };
export const DaemonSetResource: ResourceDescriptor = { group: 'apps', version: 'v1', plural: 'daemonsets', kind: 'DaemonSet', namespaced: true };

export type Deployment = V1Deployment;
export type ReplicaSet = V1ReplicaSet;
export type DaemonSet = V1DaemonSet;

/** kube's labels and annotations on what the controllers create */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
