/**
 * Root definitions KubeVirt's OpenAPI lacks for kinds we serve from its parts: CDI's DataVolume
 * (KubeVirt's openapi carries v1beta1.DataVolumeSpec for dataVolumeTemplates, not the kind itself).
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
};

export function withSyntheticDefinitions<T extends Definitions>(defs: T): T {
  return { ...SYNTHETIC, ...defs };
}
