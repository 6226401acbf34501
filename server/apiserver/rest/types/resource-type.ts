/**
 * The descriptor of one served resource. crd/resource-type.ts's
 * ResourceType; built-ins add a few REST-only fields.
 */
import type { ResourceType } from '../../crd/resource-type';
import type { ApiObject } from './api-object';

export type { PrinterColumn, ResourceType } from '../../crd/resource-type';

/** REST-layer extras for built-in kinds. */
export interface ServedType extends ResourceType {
  /** extra subresources beyond status (pods: binding, eviction; namespaces: finalize) */
  extraSubresources?: string[];
  /** true for kinds whose DELETE returns the object (pods) rather than a Status */
  returnDeletedObject?: boolean;
  builtin?: boolean;
  /** served from another type's storage, converted on the way in and out (events.k8s.io → core events) */
  storedAs?: StorageMapping;
}

export interface StorageMapping {
  group: string;
  toStorage: (obj: ApiObject) => ApiObject;
  fromStorage: (obj: ApiObject) => ApiObject;
}

export const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function groupVersion(rt: { group: string; version: string }): string {
  return rt.group ? `${rt.group}/${rt.version}` : rt.version;
}

/** "pods" or "virtualmachines.kubevirt.io": how kube names a resource in messages */
export function qualifiedResource(rt: { group: string; resource: string }): string {
  return rt.group ? `${rt.resource}.${rt.group}` : rt.resource;
}
