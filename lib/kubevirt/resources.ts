/** One descriptor per kind: what the UI's hooks and the server's clients need to build paths. */
export interface ResourceDescriptor {
  group: string;
  version: string;
  plural: string;
  kind: string;
  namespaced: boolean;
  /** Short names, as `kubectl get vm` accepts them. */
  shortNames?: readonly string[];
}

export const KUBEVIRT_GROUP = 'kubevirt.io';
export const KUBEVIRT_VERSION = 'v1';
export const KUBEVIRT_API_VERSION = `${KUBEVIRT_GROUP}/${KUBEVIRT_VERSION}`;
export const MIGRATIONS_GROUP = 'migrations.kubevirt.io';
export const MIGRATIONS_VERSION = 'v1alpha1';
export const SUBRESOURCES_GROUP = 'subresources.kubevirt.io';

export const VirtualMachineResource: ResourceDescriptor = {
  group: KUBEVIRT_GROUP, version: KUBEVIRT_VERSION, plural: 'virtualmachines',
  kind: 'VirtualMachine', namespaced: true, shortNames: ['vm', 'vms'],
};
export const VirtualMachineInstanceResource: ResourceDescriptor = {
  group: KUBEVIRT_GROUP, version: KUBEVIRT_VERSION, plural: 'virtualmachineinstances',
  kind: 'VirtualMachineInstance', namespaced: true, shortNames: ['vmi', 'vmis'],
};
export const VirtualMachineInstanceMigrationResource: ResourceDescriptor = {
  group: KUBEVIRT_GROUP, version: KUBEVIRT_VERSION, plural: 'virtualmachineinstancemigrations',
  kind: 'VirtualMachineInstanceMigration', namespaced: true, shortNames: ['vmim', 'vmims'],
};
export const MigrationPolicyResource: ResourceDescriptor = {
  group: MIGRATIONS_GROUP, version: MIGRATIONS_VERSION, plural: 'migrationpolicies',
  kind: 'MigrationPolicy', namespaced: false,
};
/** CDI's DataVolume (cdi.kubevirt.io): a claim and how to fill it */
export const DataVolumeResource: ResourceDescriptor = {
  group: 'cdi.kubevirt.io', version: 'v1beta1', plural: 'datavolumes',
  kind: 'DataVolume', namespaced: true, shortNames: ['dv', 'dvs'],
};
/** CDI's DataSource (cdi.kubevirt.io): a named, ready-to-clone source (a PVC) DataVolumes refer to by `sourceRef` */
export const DataSourceResource: ResourceDescriptor = {
  group: 'cdi.kubevirt.io', version: 'v1beta1', plural: 'datasources',
  kind: 'DataSource', namespaced: true, shortNames: ['das'],
};
const snapshotResource = (kind: string, plural: string, shortNames: string[]): ResourceDescriptor => ({ group: 'snapshot.kubevirt.io', version: 'v1beta1', plural, kind, namespaced: true, shortNames });
export const VirtualMachineSnapshotResource = snapshotResource('VirtualMachineSnapshot', 'virtualmachinesnapshots', ['vmsnapshot', 'vmsnapshots']);
export const VirtualMachineSnapshotContentResource = snapshotResource('VirtualMachineSnapshotContent', 'virtualmachinesnapshotcontents', ['vmsnapshotcontent', 'vmsnapshotcontents']);
export const VirtualMachineRestoreResource = snapshotResource('VirtualMachineRestore', 'virtualmachinerestores', ['vmrestore', 'vmrestores']);
/** VM groups: replica sets of VMIs and pools of VMs (both with a scale subresource), and the deprecated VMI presets */
export const VirtualMachineInstanceReplicaSetResource: ResourceDescriptor = {
  group: KUBEVIRT_GROUP, version: KUBEVIRT_VERSION, plural: 'virtualmachineinstancereplicasets',
  kind: 'VirtualMachineInstanceReplicaSet', namespaced: true, shortNames: ['vmirs', 'vmirss'],
};
export const VirtualMachinePoolResource: ResourceDescriptor = {
  group: 'pool.kubevirt.io', version: 'v1beta1', plural: 'virtualmachinepools',
  kind: 'VirtualMachinePool', namespaced: true, shortNames: ['vmpool', 'vmpools'],
};
export const VirtualMachineInstancePresetResource: ResourceDescriptor = {
  group: KUBEVIRT_GROUP, version: KUBEVIRT_VERSION, plural: 'virtualmachineinstancepresets',
  kind: 'VirtualMachineInstancePreset', namespaced: true, shortNames: ['vmipreset', 'vmipresets'],
};
/** Core kinds the console and the components read (group '' → /api/v1). */
export const PodResource: ResourceDescriptor = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };
export const NodeResource: ResourceDescriptor = { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false };
export const EventResource: ResourceDescriptor = { group: '', version: 'v1', plural: 'events', kind: 'Event', namespaced: true };
export const PersistentVolumeClaimResource: ResourceDescriptor = { group: '', version: 'v1', plural: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', namespaced: true, shortNames: ['pvc'] };
export const StorageClassResource: ResourceDescriptor = { group: 'storage.k8s.io', version: 'v1', plural: 'storageclasses', kind: 'StorageClass', namespaced: false, shortNames: ['sc'] };
export const ServiceResource: ResourceDescriptor = { group: '', version: 'v1', plural: 'services', kind: 'Service', namespaced: true, shortNames: ['svc'] };
export const NamespaceResource: ResourceDescriptor = { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false };

/** clone.kubevirt.io: a new VM from a VM or a snapshot */
export const VirtualMachineCloneResource: ResourceDescriptor = {
  group: 'clone.kubevirt.io', version: 'v1beta1', plural: 'virtualmachineclones', kind: 'VirtualMachineClone', namespaced: true, shortNames: ['vmclone', 'vmclones'],
};

/** The cluster's configuration (one CR, kubevirt/kubevirt). */
export const KubeVirtResource: ResourceDescriptor = {
  group: KUBEVIRT_GROUP, version: KUBEVIRT_VERSION, plural: 'kubevirts',
  kind: 'KubeVirt', namespaced: true, shortNames: ['kv', 'kvs'],
};

const instancetypeResource = (kind: string, plural: string, namespaced: boolean, shortNames: string[]): ResourceDescriptor => ({
  group: 'instancetype.kubevirt.io', version: 'v1beta1', plural, kind, namespaced, shortNames,
});
export const InstancetypeResource = instancetypeResource('VirtualMachineInstancetype', 'virtualmachineinstancetypes', true, ['vminstancetype', 'vminstancetypes', 'vmf', 'vmfs']);
export const ClusterInstancetypeResource = instancetypeResource('VirtualMachineClusterInstancetype', 'virtualmachineclusterinstancetypes', false, ['vmclusterinstancetype', 'vmclusterinstancetypes', 'vmcf', 'vmcfs']);
export const PreferenceResource = instancetypeResource('VirtualMachinePreference', 'virtualmachinepreferences', true, ['vmpref', 'vmprefs', 'vmp', 'vmps']);
export const ClusterPreferenceResource = instancetypeResource('VirtualMachineClusterPreference', 'virtualmachineclusterpreferences', false, ['vmcp', 'vmcps']);

export const KUBEVIRT_RESOURCES: readonly ResourceDescriptor[] = [
  VirtualMachineResource,
  VirtualMachineInstanceResource,
  VirtualMachineInstanceMigrationResource,
  MigrationPolicyResource,
  KubeVirtResource,
  InstancetypeResource,
  ClusterInstancetypeResource,
  PreferenceResource,
  ClusterPreferenceResource,
  DataVolumeResource,
  DataSourceResource,
  VirtualMachineSnapshotResource,
  VirtualMachineSnapshotContentResource,
  VirtualMachineRestoreResource,
  VirtualMachineInstanceReplicaSetResource,
  VirtualMachinePoolResource,
  VirtualMachineInstancePresetResource,
  VirtualMachineCloneResource,
];

/** `apiVersion` string of a descriptor (`kubevirt.io/v1`). */
export function apiVersionOf(r: ResourceDescriptor): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/** REST path of a collection or one object: `/apis/kubevirt.io/v1/namespaces/ns/virtualmachines/name`. */
export function resourcePath(r: ResourceDescriptor, opts: { namespace?: string; name?: string } = {}): string {
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  const ns = r.namespaced && opts.namespace ? `/namespaces/${encodeURIComponent(opts.namespace)}` : '';
  const name = opts.name ? `/${encodeURIComponent(opts.name)}` : '';
  return `${base}${ns}/${r.plural}${name}`;
}

/** Path of an object's own subresource (`/api/v1/namespaces/ns/pods/x/eviction`, `…/status`). */
export function objectSubresourcePath(r: ResourceDescriptor, opts: { namespace?: string; name: string }, sub: string): string {
  return `${resourcePath(r, opts)}/${sub}`;
}

/** Path of a virt-api subresource: `/apis/subresources.kubevirt.io/v1/namespaces/ns/virtualmachines/x/start`. */
export function subresourcePath(r: ResourceDescriptor, namespace: string, name: string, sub: string): string {
  return `/apis/${SUBRESOURCES_GROUP}/${KUBEVIRT_VERSION}/namespaces/${encodeURIComponent(namespace)}/${r.plural}/${encodeURIComponent(name)}/${sub}`;
}

/** virt-api's namespaced `expand-vm-spec` (PUT a draft VM, get it expanded). */
export function expandVMSpecPath(namespace: string): string {
  return `/apis/${SUBRESOURCES_GROUP}/${KUBEVIRT_VERSION}/namespaces/${encodeURIComponent(namespace)}/expand-vm-spec`;
}
