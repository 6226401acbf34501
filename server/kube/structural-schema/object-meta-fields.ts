/** The fields of metav1.ObjectMeta: what survives pruning of `metadata` in a custom resource. */
export const OBJECT_META_FIELDS = new Set([
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation',
  'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations',
  'ownerReferences', 'finalizers', 'managedFields',
]);

/** Fields always kept at the root of a custom resource and of an embedded resource. */
export const TYPE_META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);
