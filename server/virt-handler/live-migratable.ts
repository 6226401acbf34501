/**
 * PURE: the LiveMigratable condition (KubeVirt's vm.go calculateLiveMigrationCondition, reduced).
 * Local disks (containerDisk, emptyDisk, cloud-init) can move with the guest (block migration),
 * so they never make a VMI non-migratable; what cannot move is named in the message.
 */
import type { Condition as VMICondition, VirtualMachineInstance } from '../../lib/kubevirt';
import { Condition, Reason } from './constants';
import { BACKEND_STORAGE_VOLUME, hasPersistentTPM, usesPersistentState } from '../../lib/kubevirt/backend-storage';

/** not KubeVirt's: its swtpm hands the state dir over (swtpm >= 0.8, --migration release-lock-outgoing); Debian 12's 0.7.1 cannot */
export const PERSISTENT_TPM_MESSAGE = "cannot migrate VMI: the persistent TPM's state directory stays locked by the source's swtpm (swtpm 0.7 cannot hand it over to the target)";

const POD_BRIDGE_MESSAGE = 'cannot migrate VMI which does not use masquerade, bridge with kubevirt.io/allow-pod-bridge-network-live-migration VM annotation or a migratable plugin to connect to the pod network';

function interfaceBlocker(vmi: VirtualMachineInstance): string | undefined {
  const podNetworks = new Set((vmi.spec.networks ?? []).filter((n) => n.pod).map((n) => n.name));
  const bridged = (vmi.spec.domain.devices?.interfaces ?? []).some((i) => i.bridge && podNetworks.has(i.name));
  return bridged ? POD_BRIDGE_MESSAGE : undefined;
}

/** a ReadWriteMany claim (virt-controller copies its access modes into volumeStatus) stays where it is */
function isSharedClaim(vmi: VirtualMachineInstance, volume: string): boolean {
  const info = vmi.status?.volumeStatus?.find((s) => s.name === volume)?.persistentVolumeClaimInfo;
  return info?.accessModes?.includes('ReadWriteMany') ?? false;
}

function diskBlocker(vmi: VirtualMachineInstance): string | undefined {
  for (const v of vmi.spec.volumes ?? []) {
    const claim = v.persistentVolumeClaim?.claimName ?? v.dataVolume?.name;
    if (claim && !isSharedClaim(vmi, v.name)) return `cannot migrate VMI: PVC ${claim} is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)`;
    if (v.hostDisk && !v.hostDisk.shared) return 'cannot migrate VMI with non-shared HostDisk';
  }
  // a persistent TPM / EFI keeps its state in the backend storage claim: both launchers must see it
  if (usesPersistentState(vmi.spec) && !isSharedClaim(vmi, BACKEND_STORAGE_VOLUME)) return 'cannot migrate VMI: Backend storage PVC is not RWX';
  if (hasPersistentTPM(vmi.spec)) return PERSISTENT_TPM_MESSAGE;
  return undefined;
}

/**
 * KubeVirt's status.migrationMethod: BlockMigration when a volume lives on the node (containerDisk,
 * emptyDisk, cloud-init and config disks: copied to the target), LiveMigration when every volume is a
 * claim or a host disk (only memory moves).
 */
export function migrationMethodOf(vmi: VirtualMachineInstance): 'BlockMigration' | 'LiveMigration' {
  const local = (vmi.spec.volumes ?? []).some((v) => !v.persistentVolumeClaim && !v.dataVolume && !v.hostDisk);
  return local ? 'BlockMigration' : 'LiveMigration';
}

export function computeLiveMigratable(vmi: VirtualMachineInstance): Omit<VMICondition, 'lastTransitionTime'> {
  const iface = interfaceBlocker(vmi);
  if (iface) return { type: Condition.LiveMigratable, status: 'False', reason: Reason.InterfaceNotLiveMigratable, message: iface };
  const disk = diskBlocker(vmi);
  if (disk) return { type: Condition.LiveMigratable, status: 'False', reason: Reason.DisksNotLiveMigratable, message: disk };
  return { type: Condition.LiveMigratable, status: 'True' };
}
