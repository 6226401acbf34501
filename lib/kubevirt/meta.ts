/**
 * The Kubernetes metadata shapes the KubeVirt objects share.
 * Hand-written and loose on purpose: objects come from the API server as JSON.
 */

/** A resource quantity as it appears in JSON: `"1Gi"`, `"100m"` or a bare number. */
export type Quantity = string | number;

export type ResourceList = Record<string, Quantity>;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
}

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface Condition<T extends string = string> {
  type: T;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
}

/** Any Kubernetes object: what the generic parts (tables, YAML editor, admission) handle. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}
