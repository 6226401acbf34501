/**
 * Cluster settings the admission webhooks read (the subset of KubeVirt's
 * `spec.configuration` that matters here), with our defaults.
 */

export interface AdmissionConfig {
  /** Default `spec.architecture` (KubeVirt: the node's). */
  architecture: string;
  /** Machine type per architecture. */
  machineTypes: Record<string, string>;
  /** Empty means `host-model`. */
  cpuModel: string;
  /** Binding of the auto-added pod interface: KubeVirt defaults to bridge; we use masquerade (works without host bridges). */
  defaultNetworkInterface: 'masquerade' | 'bridge';
  /** Bus given to `disk`/`lun` targets without one. KubeVirt amd64 uses `sata`; ours is virtio (docs/adr/0001-defaults.md). */
  defaultDiskBus: 'virtio' | 'sata';
  /** Bus given to `cdrom` targets without one. */
  defaultCDRomBus: 'sata' | 'scsi';
  /** KubeVirt's `permitBridgeInterfaceOnPodNetwork` (default true). */
  permitBridgeInterfaceOnPodNetwork: boolean;
  /** Feature gates that change validation (`HostDisk`). */
  featureGates: string[];
  /** Usernames of KubeVirt's own components (may change VMI specs, reserved labels, migration priority). */
  kubevirtServiceAccounts: string[];
  /** Default `spec.evictionStrategy` copied into VMIs that have none (unset = leave empty). */
  evictionStrategy?: 'None' | 'LiveMigrate' | 'LiveMigrateIfPossible' | 'External';
  /** KubeVirt's `vmRolloutStrategy`: under LiveUpdate a VM's memory.maxGuest is checked for memory hotplug. */
  vmRolloutStrategy?: string;
}

import { enabledFeatureGates, type KubeVirtConfiguration } from '../../../lib/kubevirt/kubevirt-cr';

export const KUBEVIRT_NAMESPACE = 'kubevirt';
const SA = (name: string) => `system:serviceaccount:${KUBEVIRT_NAMESPACE}:${name}`;

export const DEFAULT_ADMISSION_CONFIG: AdmissionConfig = {
  architecture: 'amd64',
  machineTypes: { amd64: 'q35', arm64: 'virt', s390x: 's390-ccw-virtio' },
  cpuModel: '',
  defaultNetworkInterface: 'masquerade',
  defaultDiskBus: 'virtio',
  defaultCDRomBus: 'sata',
  permitBridgeInterfaceOnPodNetwork: true,
  featureGates: [],
  kubevirtServiceAccounts: [SA('kubevirt-controller'), SA('kubevirt-handler'), SA('kubevirt-apiserver')],
};

export function withAdmissionDefaults(partial: Partial<AdmissionConfig> = {}): AdmissionConfig {
  return { ...DEFAULT_ADMISSION_CONFIG, ...partial };
}

/** The admission settings a KubeVirt CR's spec.configuration sets (what it leaves out keeps our default). */
export function admissionConfigFrom(cfg: KubeVirtConfiguration): Partial<AdmissionConfig> {
  const out: Partial<AdmissionConfig> = { featureGates: enabledFeatureGates(cfg) };
  const amd64 = cfg.architectureConfiguration?.amd64?.machineType ?? cfg.machineType;
  if (amd64) out.machineTypes = { ...DEFAULT_ADMISSION_CONFIG.machineTypes, amd64 };
  if (cfg.cpuModel) out.cpuModel = cfg.cpuModel;
  const binding = cfg.network?.defaultNetworkInterface;
  if (binding === 'bridge' || binding === 'masquerade') out.defaultNetworkInterface = binding;
  if (cfg.network?.permitBridgeInterfaceOnPodNetwork !== undefined) out.permitBridgeInterfaceOnPodNetwork = cfg.network.permitBridgeInterfaceOnPodNetwork;
  if (cfg.evictionStrategy) out.evictionStrategy = cfg.evictionStrategy;
  if (cfg.vmRolloutStrategy) out.vmRolloutStrategy = cfg.vmRolloutStrategy;
  return out;
}

export function isKubeVirtServiceAccount(config: AdmissionConfig, username: string | undefined): boolean {
  return !!username && config.kubevirtServiceAccounts.includes(username);
}
