/** Definition names and the apimachinery meta schemas our OpenAPI documents share. */
import type { ResourceType } from './resource-type';

export const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
export const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
export const STATUS = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
export const PATCH = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';
export const DELETE_OPTIONS = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';

/** Package names of the built-in groups, as kube-apiserver names their definitions. */
const BUILTIN_PACKAGES: Record<string, string> = {
  '': 'io.k8s.api.core',
  apps: 'io.k8s.api.apps',
  policy: 'io.k8s.api.policy',
  'coordination.k8s.io': 'io.k8s.api.coordination',
  'events.k8s.io': 'io.k8s.api.events',
  'admissionregistration.k8s.io': 'io.k8s.api.admissionregistration',
  'rbac.authorization.k8s.io': 'io.k8s.api.rbac',
  'storage.k8s.io': 'io.k8s.api.storage',
  'discovery.k8s.io': 'io.k8s.api.discovery',
  'networking.k8s.io': 'io.k8s.api.networking',
  'apiextensions.k8s.io': 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions',
  'apiregistration.k8s.io': 'io.k8s.kube-aggregator.pkg.apis.apiregistration',
};

/** `io.kubevirt.v1.VirtualMachine`, `io.k8s.api.core.v1.Pod`: kube's definition name for a kind. */
export function definitionName(rt: Pick<ResourceType, 'group' | 'version'>, kind: string): string {
  const pkg = BUILTIN_PACKAGES[rt.group] ?? rt.group.split('.').reverse().join('.');
  return `${pkg}.${rt.version}.${kind}`;
}

/** The group/version path of discovery and OpenAPI v3: `api/v1`, `apis/kubevirt.io/v1`. */
export const groupVersionPath = (group: string, version: string) => (group ? `apis/${group}/${version}` : `api/${version}`);

const str = (description: string) => ({ type: 'string', description });
const strMap = (description: string) => ({ type: 'object', additionalProperties: { type: 'string', default: '' }, description });

/** Compact schemas of the meta types every resource refers to (descriptions shortened). */
export function metaDefinitions(refPrefix: string): Record<string, object> {
  return {
    [OBJECT_META]: {
      description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
      type: 'object',
      properties: {
        name: str('Name must be unique within a namespace. Cannot be updated.'),
        generateName: str('GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.'),
        namespace: str('Namespace defines the space within which each name must be unique.'),
        uid: str('UID is the unique in time and space value for this object. Populated by the system. Read-only.'),
        resourceVersion: str('An opaque value that represents the internal version of this object. Populated by the system. Read-only.'),
        generation: { type: 'integer', format: 'int64', description: 'A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.' },
        creationTimestamp: { ...str('CreationTimestamp is a timestamp representing the server time when this object was created. Read-only.'), format: 'date-time' },
        deletionTimestamp: { ...str('DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. Read-only.'), format: 'date-time' },
        deletionGracePeriodSeconds: { type: 'integer', format: 'int64', description: 'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system.' },
        labels: strMap('Map of string keys and values that can be used to organize and categorize (scope and select) objects.'),
        annotations: strMap('Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata.'),
        finalizers: { type: 'array', items: { type: 'string', default: '' }, description: 'Must be empty before the object is deleted from the registry.', 'x-kubernetes-list-type': 'set' },
        ownerReferences: {
          type: 'array',
          description: 'List of objects depended by this object.',
          items: {
            type: 'object',
            required: ['apiVersion', 'kind', 'name', 'uid'],
            properties: {
              apiVersion: str('API version of the referent.'), kind: str('Kind of the referent.'), name: str('Name of the referent.'),
              uid: str('UID of the referent.'), controller: { type: 'boolean', description: 'If true, this reference points to the managing controller.' },
              blockOwnerDeletion: { type: 'boolean', description: 'If true, the owner cannot be deleted from the key-value store until this reference is removed.' },
            },
          },
          'x-kubernetes-patch-merge-key': 'uid',
          'x-kubernetes-patch-strategy': 'merge',
        },
        managedFields: { type: 'array', items: { type: 'object' }, description: 'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.' },
      },
    },
    [LIST_META]: {
      description: 'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
      type: 'object',
      properties: {
        resourceVersion: str('String that identifies the server\'s internal version of this object.'),
        continue: str('continue may be set if the user set a limit on the number of items returned.'),
        remainingItemCount: { type: 'integer', format: 'int64', description: 'The number of subsequent items in the list which are not included in this list response.' },
      },
    },
    [STATUS]: {
      description: 'Status is a return value for calls that don\'t return other objects.',
      type: 'object',
      properties: {
        apiVersion: str('APIVersion of this representation.'), kind: str('Kind of this representation.'),
        metadata: { $ref: refPrefix + LIST_META }, status: str('Status of the operation. One of: "Success" or "Failure".'),
        message: str('A human-readable description of the status of this operation.'), reason: str('A machine-readable description of why this operation is in the "Failure" status.'),
        code: { type: 'integer', format: 'int32', description: 'Suggested HTTP return code for this status, 0 if not set.' },
        details: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, description: 'Extended data associated with the reason.' },
      },
      'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }],
    },
    [PATCH]: { description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.', type: 'object' },
    [DELETE_OPTIONS]: {
      description: 'DeleteOptions may be provided when deleting an API object.',
      type: 'object',
      properties: {
        gracePeriodSeconds: { type: 'integer', format: 'int64', description: 'The duration in seconds before the object should be deleted.' },
        propagationPolicy: str('Whether and how garbage collection will be performed: Orphan, Background or Foreground.'),
        dryRun: { type: 'array', items: { type: 'string' }, description: 'When present, indicates that modifications should not be persisted.' },
        preconditions: { type: 'object', properties: { uid: str('Specifies the target UID.'), resourceVersion: str('Specifies the target ResourceVersion') } },
      },
    },
  };
}
