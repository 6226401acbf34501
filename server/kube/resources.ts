/**
 * Descriptors of the kinds the components talk to. The KubeVirt kinds and the path rules are
 * lib/kubevirt's (one definition for browser and server); the core kinds are added here.
 */
import { resourcePath, type ResourceDescriptor } from '../../lib/kubevirt/resources';

export type { ResourceDescriptor };
export {
  KUBEVIRT_GROUP, KUBEVIRT_VERSION,
  VirtualMachineResource, VirtualMachineInstanceResource, VirtualMachineInstanceMigrationResource,
  PodResource, NodeResource, EventResource,
} from '../../lib/kubevirt/resources';
export const LeaseResource: ResourceDescriptor = { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true };

/** The REST path of a collection: all namespaces when `namespace` is omitted (for list and watch). */
export function collectionPath(res: ResourceDescriptor, namespace?: string): string {
  return resourcePath(res, { namespace });
}

/** `namespace/name` for namespaced objects, `name` for cluster-scoped ones (client-go's MetaNamespaceKeyFunc). */
export function keyOf(obj: { metadata?: { namespace?: string; name?: string } }): string {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? '';
  return ns ? `${ns}/${name}` : name;
}

export function splitKey(key: string): { namespace?: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}
