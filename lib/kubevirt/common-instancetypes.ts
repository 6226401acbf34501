/**
 * The instance types and preferences every cluster starts with, like KubeVirt's
 * common-instancetypes bundle (the same series names and sizes): u1 (universal), o1 (memory
 * overcommitted by 50 %), m1 (memory-heavy), and a preference for the demo guest. `kv up` creates
 * them; deploy/cluster/common-instancetypes.yaml is the same list for a real cluster.
 */
import { INSTANCETYPE_GROUP, INSTANCETYPE_VERSION, type Instancetype, type Preference } from './instancetype';

interface Row { name: string; cpu: number; memory: string; overcommitPercent?: number; series: string; description: string }

const row = (series: string, description: string, overcommitPercent?: number) => ([size, cpu, memory]: [string, number, string]): Row =>
  ({ name: `${series}.${size}`, cpu, memory, series, description, overcommitPercent });

const GENERAL: [string, number, string][] = [['nano', 1, '512Mi'], ['micro', 1, '1Gi'], ['small', 1, '2Gi'], ['medium', 1, '4Gi'], ['2xmedium', 2, '4Gi'], ['large', 2, '8Gi'], ['xlarge', 4, '16Gi'], ['2xlarge', 8, '32Gi']];
const MEMORY: [string, number, string][] = [['large', 2, '16Gi'], ['xlarge', 4, '32Gi'], ['2xlarge', 8, '64Gi']];

export const COMMON_INSTANCETYPE_ROWS: readonly Row[] = [
  ...GENERAL.map(row('u1', 'universal: balanced CPU and memory for general workloads')),
  ...GENERAL.map(row('o1', 'overcommitted: the u1 sizes, with half their memory requested from the node', 50)),
  ...MEMORY.map(row('m1', 'memory-heavy: 8 GiB per vCPU')),
];

export function commonInstancetypes(): Instancetype[] {
  return COMMON_INSTANCETYPE_ROWS.map((r) => ({
    apiVersion: `${INSTANCETYPE_GROUP}/${INSTANCETYPE_VERSION}`, kind: 'VirtualMachineClusterInstancetype',
    metadata: {
      name: r.name,
      labels: { 'instancetype.kubevirt.io/vendor': 'kubevirt-ts', 'instancetype.kubevirt.io/class': r.series, 'instancetype.kubevirt.io/cpu': String(r.cpu), 'instancetype.kubevirt.io/memory': r.memory },
      annotations: { 'instancetype.kubevirt.io/description': r.description },
    },
    spec: { cpu: { guest: r.cpu }, memory: { guest: r.memory, ...(r.overcommitPercent ? { overcommitPercent: r.overcommitPercent } : {}) } },
  }));
}

export function commonPreferences(): Preference[] {
  return [{
    apiVersion: `${INSTANCETYPE_GROUP}/${INSTANCETYPE_VERSION}`, kind: 'VirtualMachineClusterPreference',
    metadata: { name: 'demo', labels: { 'instancetype.kubevirt.io/vendor': 'kubevirt-ts' }, annotations: { 'openshift.io/display-name': 'kubevirt-ts demo guest (busybox)' } },
    spec: {
      devices: { preferredDiskBus: 'virtio', preferredInterfaceModel: 'virtio', preferredRng: {} },
      preferredTerminationGracePeriodSeconds: 0,
    },
  }];
}
