/**
 * Root definitions KubeVirt's OpenAPI lacks for kinds we serve from its parts: CDI's DataVolume
 * (KubeVirt's openapi carries v1beta1.DataVolumeSpec for dataVolumeTemplates, not the kind itself)
 * and CDI's DataSource (its source's PVC and snapshot parts are in KubeVirt's openapi).
 */
type Definitions = Record<string, Record<string, unknown>>;

const ref = (name: string) => ({ $ref: `#/definitions/${name}` });

const SYNTHETIC: Definitions = {
  'v1beta1.DataVolume': {
    description: 'DataVolume is an abstraction on top of PersistentVolumeClaims to allow easy population of those PersistentVolumeClaims with relation to VirtualMachines',
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      spec: ref('v1beta1.DataVolumeSpec'),
      status: { description: 'DataVolumeStatus contains the current status of the DataVolume', type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  },
  // CDI's DataSource: a named pointer to a source PVC or snapshot that DataVolumes clone from (sourceRef)
  'v1beta1.DataSource': {
    description: 'DataSource references an import/clone source for a DataVolume',
    type: 'object',
    required: ['spec'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      spec: {
        description: 'DataSourceSpec defines specification for DataSource', type: 'object', required: ['source'],
        properties: {
          source: {
            description: 'Source is the source of the data referenced by the DataSource', type: 'object',
            properties: { pvc: ref('v1beta1.DataVolumeSourcePVC'), snapshot: ref('v1beta1.DataVolumeSourceSnapshot') },
          },
        },
      },
      status: { description: 'DataSourceStatus provides the most recently observed status of the DataSource', type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  },
};

export function withSyntheticDefinitions<T extends Definitions>(defs: T): T {
  return { ...SYNTHETIC, ...defs };
}
