/**
 * The patch strategies of the built-in kinds' list fields (the `patchStrategy` / `patchMergeKey`
 * struct tags of k8s.io/api), as strategic merge patch needs them. A list not named here is
 * atomic: the patch replaces it.
 */

export interface ListStrategy {
  /** a list of objects merged by this key; absent → a list of primitives merged as a set */
  mergeKey?: string;
}

/** The kinds kube-apiserver accepts strategic merge patches for (custom resources get 415). */
export const STRATEGIC_MERGE_KINDS = new Set([
  'Pod', 'Node', 'Namespace', 'Event', 'ConfigMap', 'Secret', 'Service', 'ServiceAccount',
  'Endpoints', 'PersistentVolumeClaim', 'PersistentVolume', 'Lease', 'ControllerRevision',
  'CustomResourceDefinition', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration',
  'APIService', 'Deployment', 'DaemonSet', 'StatefulSet', 'ReplicaSet', 'Job', 'PodDisruptionBudget',
  'Binding', 'Eviction', 'LimitRange', 'ResourceQuota', 'Role', 'RoleBinding', 'ClusterRole',
  'ClusterRoleBinding', 'PriorityClass', 'StorageClass', 'NetworkPolicy',
]);

/** list field name → strategy, for the fields whose merge key does not depend on the kind */
const LIST_STRATEGIES: Record<string, ListStrategy> = {
  finalizers: {},
  ownerReferences: { mergeKey: 'uid' },
  containers: { mergeKey: 'name' },
  initContainers: { mergeKey: 'name' },
  ephemeralContainers: { mergeKey: 'name' },
  volumes: { mergeKey: 'name' },
  env: { mergeKey: 'name' },
  volumeMounts: { mergeKey: 'mountPath' },
  volumeDevices: { mergeKey: 'devicePath' },
  imagePullSecrets: { mergeKey: 'name' },
  hostAliases: { mergeKey: 'ip' },
  conditions: { mergeKey: 'type' },
  topologySpreadConstraints: { mergeKey: 'topologyKey' },
  resourceClaims: { mergeKey: 'name' },
  schedulingGates: { mergeKey: 'name' },
  podIPs: { mergeKey: 'ip' },
  hostIPs: { mergeKey: 'ip' },
  addresses: { mergeKey: 'type' },
  webhooks: { mergeKey: 'name' },
  secrets: { mergeKey: 'name' },
};

/**
 * The strategy for the list at `path` (field names from the object root, list indexes left out)
 * of an object of `kind`; undefined → replace the list.
 */
export function listStrategyFor(kind: string, path: readonly string[]): ListStrategy | undefined {
  const field = path[path.length - 1];
  if (field === 'ports') {
    // Service and Endpoints ports merge by port; container ports by containerPort.
    if (kind === 'Service' && path.length === 2) return { mergeKey: 'port' };
    if (path.includes('containers') || path.includes('initContainers')) return { mergeKey: 'containerPort' };
    return undefined;
  }
  if (field === 'secrets' && kind !== 'ServiceAccount') return undefined;
  if (field === 'addresses' && kind !== 'Node') return undefined;
  return LIST_STRATEGIES[field];
}
