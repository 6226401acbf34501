/**
 * The kubevirt.io CustomResourceDefinitions we serve, with the names, scopes, printer columns and
 * subresources of KubeVirt's virt-operator (pkg/virt-operator/resource/generate/components/crds.go).
 * One deliberate difference: VirtualMachineInstance has a status subresource here (our
 * controllers write VMI status through /status); KubeVirt's VMI CRD has none.
 */

import type { CustomResourceDefinition } from '../../kube/structural-schema/crd-types';
import type { JSONSchemaProps } from '../../kube/structural-schema/json-schema-props';

export interface CRDSpec {
  /** definition name in KubeVirt's openapi-spec */
  definition: string;
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  scope: 'Namespaced' | 'Cluster';
  shortNames: string[];
  categories: string[];
  statusSubresource: boolean;
  columns: { name: string; type: string; jsonPath: string; description?: string; priority?: number }[];
  /** the scale subresource on .spec.replicas / .status.replicas / .status.labelSelector (replica sets, pools) */
  scale?: boolean;
  /** older versions served beside `version` from the same storage (pools: v1alpha1) */
  alsoServed?: string[];
  /** kube's deprecation warning for a served but deprecated kind (presets) */
  deprecationWarning?: string;
}

const AGE = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };
const readyColumn = (name: string, type: string, priority?: number) => ({
  name, type: 'string', jsonPath: `.status.conditions[?(@.type=='${type}')].status`, ...(priority ? { priority } : {}),
});

export const KUBEVIRT_CRD_SPECS: CRDSpec[] = [
  {
    definition: 'v1.VirtualMachine', group: 'kubevirt.io', version: 'v1', kind: 'VirtualMachine',
    plural: 'virtualmachines', singular: 'virtualmachine', scope: 'Namespaced',
    shortNames: ['vm', 'vms'], categories: ['all'], statusSubresource: true,
    columns: [
      AGE,
      { name: 'Status', type: 'string', jsonPath: '.status.printableStatus', description: 'Human Readable Status' },
      readyColumn('Ready', 'Ready'),
    ],
  },
  {
    definition: 'v1.VirtualMachineInstance', group: 'kubevirt.io', version: 'v1', kind: 'VirtualMachineInstance',
    plural: 'virtualmachineinstances', singular: 'virtualmachineinstance', scope: 'Namespaced',
    shortNames: ['vmi', 'vmis'], categories: ['all'], statusSubresource: true,
    columns: [
      AGE,
      { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
      { name: 'IP', type: 'string', jsonPath: '.status.interfaces[0].ipAddress' },
      { name: 'NodeName', type: 'string', jsonPath: '.status.nodeName' },
      readyColumn('Ready', 'Ready'),
      readyColumn('Live-Migratable', 'LiveMigratable', 1),
      readyColumn('Paused', 'Paused', 1),
    ],
  },
  {
    definition: 'v1.VirtualMachineInstanceMigration', group: 'kubevirt.io', version: 'v1', kind: 'VirtualMachineInstanceMigration',
    plural: 'virtualmachineinstancemigrations', singular: 'virtualmachineinstancemigration', scope: 'Namespaced',
    shortNames: ['vmim', 'vmims'], categories: ['all'], statusSubresource: true,
    columns: [
      { name: 'Phase', type: 'string', jsonPath: '.status.phase', description: 'The current phase of VM instance migration' },
      { name: 'VMI', type: 'string', jsonPath: '.spec.vmiName', description: 'The name of the VMI to perform the migration on' },
    ],
  },
  {
    // the operator's CR: `kv up` creates kubevirt/kubevirt; every component reads spec.configuration live
    definition: 'v1.KubeVirt', group: 'kubevirt.io', version: 'v1', kind: 'KubeVirt',
    plural: 'kubevirts', singular: 'kubevirt', scope: 'Namespaced',
    shortNames: ['kv', 'kvs'], categories: ['all'], statusSubresource: true,
    columns: [AGE, { name: 'Phase', type: 'string', jsonPath: '.status.phase' }],
  },
  ...instancetypeSpecs(),
  ...snapshotSpecs(),
  ...vmGroupSpecs(),
  {
    // CDI's DataVolume (cdi.kubevirt.io): a PVC and how to fill it; the storage component imports it
    definition: 'v1beta1.DataVolume', group: 'cdi.kubevirt.io', version: 'v1beta1', kind: 'DataVolume',
    plural: 'datavolumes', singular: 'datavolume', scope: 'Namespaced',
    shortNames: ['dv', 'dvs'], categories: ['all'], statusSubresource: true,
    columns: [
      { name: 'Phase', type: 'string', jsonPath: '.status.phase', description: 'The phase the data volume is in' },
      { name: 'Progress', type: 'string', jsonPath: '.status.progress', description: 'Transfer progress in percentage if known, N/A otherwise' },
      { name: 'Restarts', type: 'integer', jsonPath: '.status.restartCount', description: 'The number of times the transfer has been restarted.' },
      AGE,
    ],
  },
  {
    // CDI's DataSource: what a DataVolume's sourceRef names; the storage component keeps its Ready condition
    definition: 'v1beta1.DataSource', group: 'cdi.kubevirt.io', version: 'v1beta1', kind: 'DataSource',
    plural: 'datasources', singular: 'datasource', scope: 'Namespaced',
    shortNames: ['das'], categories: ['all'], statusSubresource: true,
    columns: [AGE],
  },
  {
    definition: 'v1alpha1.MigrationPolicy', group: 'migrations.kubevirt.io', version: 'v1alpha1', kind: 'MigrationPolicy',
    plural: 'migrationpolicies', singular: 'migrationpolicy', scope: 'Cluster',
    shortNames: [], categories: [], statusSubresource: true, columns: [],
  },
];

/** instancetype.kubevirt.io: instance types and preferences, namespaced and cluster-wide (no status, no columns but age). */
function instancetypeSpecs(): CRDSpec[] {
  const one = (kind: string, plural: string, scope: CRDSpec['scope'], shortNames: string[]): CRDSpec => ({
    definition: `v1beta1.${kind}`, group: 'instancetype.kubevirt.io', version: 'v1beta1', kind, plural, singular: plural.replace(/s$/, ''),
    scope, shortNames, categories: scope === 'Namespaced' ? ['all'] : [], statusSubresource: false, columns: [AGE],
  });
  return [
    one('VirtualMachineInstancetype', 'virtualmachineinstancetypes', 'Namespaced', ['vminstancetype', 'vminstancetypes', 'vmf', 'vmfs']),
    one('VirtualMachineClusterInstancetype', 'virtualmachineclusterinstancetypes', 'Cluster', ['vmclusterinstancetype', 'vmclusterinstancetypes', 'vmcf', 'vmcfs']),
    one('VirtualMachinePreference', 'virtualmachinepreferences', 'Namespaced', ['vmpref', 'vmprefs', 'vmp', 'vmps']),
    one('VirtualMachineClusterPreference', 'virtualmachineclusterpreferences', 'Cluster', ['vmcp', 'vmcps']),
  ];
}

/** snapshot.kubevirt.io: snapshots of VMs, their contents, and restores (KubeVirt's columns) */
function snapshotSpecs(): CRDSpec[] {
  const date = (name: string, jsonPath: string) => ({ name, type: 'date', jsonPath });
  const str = (name: string, jsonPath: string) => ({ name, type: 'string', jsonPath });
  const one = (kind: string, plural: string, shortNames: string[], columns: CRDSpec['columns']): CRDSpec => ({
    definition: `v1beta1.${kind}`, group: 'snapshot.kubevirt.io', version: 'v1beta1', kind, plural, singular: plural.replace(/s$/, ''),
    scope: 'Namespaced', shortNames, categories: [], statusSubresource: true, columns,
  });
  return [
    one('VirtualMachineSnapshot', 'virtualmachinesnapshots', ['vmsnapshot', 'vmsnapshots'], [
      str('SourceKind', '.spec.source.kind'), str('SourceName', '.spec.source.name'), str('Phase', '.status.phase'),
      { name: 'ReadyToUse', type: 'boolean', jsonPath: '.status.readyToUse' }, date('CreationTime', '.status.creationTime'), str('Error', '.status.error.message'), AGE,
    ]),
    one('VirtualMachineSnapshotContent', 'virtualmachinesnapshotcontents', ['vmsnapshotcontent', 'vmsnapshotcontents'], [
      { name: 'ReadyToUse', type: 'boolean', jsonPath: '.status.readyToUse' }, date('CreationTime', '.status.creationTime'), str('Error', '.status.error.message'), AGE,
    ]),
    one('VirtualMachineRestore', 'virtualmachinerestores', ['vmrestore', 'vmrestores'], [
      str('TargetKind', '.spec.target.kind'), str('TargetName', '.spec.target.name'), { name: 'Complete', type: 'boolean', jsonPath: '.status.complete' },
      date('RestoreTime', '.status.restoreTime'), str('Error', '.status.error.message'), AGE,
    ]),
    // clone.kubevirt.io: a new VM from a VM or a snapshot (KubeVirt's columns)
    {
      definition: 'v1beta1.VirtualMachineClone', group: 'clone.kubevirt.io', version: 'v1beta1', kind: 'VirtualMachineClone',
      plural: 'virtualmachineclones', singular: 'virtualmachineclone', scope: 'Namespaced', shortNames: ['vmclone', 'vmclones'],
      categories: [], statusSubresource: true,
      columns: [str('Phase', '.status.phase'), str('SourceVirtualMachine', '.spec.source.name'), str('TargetVirtualMachine', '.spec.target.name'), AGE],
    },
  ];
}

/** VM groups and presets: replica sets of VMIs, pools of VMs (both scalable) and the deprecated VMI presets */
function vmGroupSpecs(): CRDSpec[] {
  const int = (name: string, jsonPath: string, description: string) => ({ name, type: 'integer', jsonPath, description });
  const replicaColumns = (what: string) => [
    int('Desired', '.spec.replicas', `Number of desired ${what}`),
    int('Current', '.status.replicas', `Number of managed and not final or deleted ${what}`),
    int('Ready', '.status.readyReplicas', `Number of managed ${what} which are ready to receive traffic`),
    AGE,
  ];
  return [
    {
      definition: 'v1.VirtualMachineInstanceReplicaSet', group: 'kubevirt.io', version: 'v1', kind: 'VirtualMachineInstanceReplicaSet',
      plural: 'virtualmachineinstancereplicasets', singular: 'virtualmachineinstancereplicaset', scope: 'Namespaced',
      shortNames: ['vmirs', 'vmirss'], categories: ['all'], statusSubresource: true, scale: true,
      columns: replicaColumns('VirtualMachineInstances'),
    },
    {
      definition: 'v1beta1.VirtualMachinePool', group: 'pool.kubevirt.io', version: 'v1beta1', kind: 'VirtualMachinePool',
      plural: 'virtualmachinepools', singular: 'virtualmachinepool', scope: 'Namespaced',
      shortNames: ['vmpool', 'vmpools'], categories: ['all'], statusSubresource: true, scale: true, alsoServed: ['v1alpha1'],
      columns: replicaColumns('VirtualMachines'),
    },
    {
      definition: 'v1.VirtualMachineInstancePreset', group: 'kubevirt.io', version: 'v1', kind: 'VirtualMachineInstancePreset',
      plural: 'virtualmachineinstancepresets', singular: 'virtualmachineinstancepreset', scope: 'Namespaced',
      shortNames: ['vmipreset', 'vmipresets'], categories: ['all'], statusSubresource: false, columns: [],
      deprecationWarning: 'kubevirt.io/v1 VirtualMachineInstancePresets is now deprecated and will be removed in v2.',
    },
  ];
}

const SCALE = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' };

/** The CustomResourceDefinition object for one spec, given its structural schema. */
export function renderCRD(spec: CRDSpec, schema: JSONSchemaProps): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${spec.plural}.${spec.group}`, labels: { 'kubevirt.io': '' } },
    spec: {
      group: spec.group,
      names: {
        kind: spec.kind,
        listKind: `${spec.kind}List`,
        plural: spec.plural,
        singular: spec.singular,
        ...(spec.shortNames.length ? { shortNames: spec.shortNames } : {}),
        ...(spec.categories.length ? { categories: spec.categories } : {}),
      },
      scope: spec.scope,
      versions: [spec.version, ...(spec.alsoServed ?? [])].map((name) => ({
        name,
        served: true,
        storage: name === spec.version,
        // each version its own copies: the YAML then repeats them instead of aliasing one version's
        ...(spec.columns.length ? { additionalPrinterColumns: structuredClone(spec.columns) } : {}),
        ...(spec.deprecationWarning ? { deprecated: true, deprecationWarning: spec.deprecationWarning } : {}),
        schema: { openAPIV3Schema: name === spec.version ? schema : structuredClone(schema) },
        ...(spec.statusSubresource || spec.scale
          ? { subresources: { ...(spec.statusSubresource ? { status: {} } : {}), ...(spec.scale ? { scale: { ...SCALE } } : {}) } }
          : {}),
      })),
    },
  };
}
