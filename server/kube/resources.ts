/** One descriptor per kind we talk to (group '' is the core group), used for client calls and watch paths. */
export interface ResourceDescriptor {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
}

export const KUBEVIRT_GROUP = 'kubevirt.io';
export const KUBEVIRT_VERSION = 'v1';

const kubevirt = (plural: string, kind: string): ResourceDescriptor => ({
  group: KUBEVIRT_GROUP,
  version: KUBEVIRT_VERSION,
  plural,
  kind,
  namespaced: true,
});

export const VirtualMachineResource = kubevirt('virtualmachines', 'VirtualMachine');
export const VirtualMachineInstanceResource = kubevirt('virtualmachineinstances', 'VirtualMachineInstance');
export const VirtualMachineInstanceMigrationResource = kubevirt('virtualmachineinstancemigrations', 'VirtualMachineInstanceMigration');

export const PodResource: ResourceDescriptor = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };
export const NodeResource: ResourceDescriptor = { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false };
export const EventResource: ResourceDescriptor = { group: '', version: 'v1', plural: 'events', kind: 'Event', namespaced: true };
export const LeaseResource: ResourceDescriptor = { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true };

/** The REST path of a collection: all namespaces when `namespace` is omitted (for list and watch). */
export function collectionPath(res: ResourceDescriptor, namespace?: string): string {
  const prefix = res.group === '' ? `/api/${res.version}` : `/apis/${res.group}/${res.version}`;
  const ns = res.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${prefix}${ns}/${res.plural}`;
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
