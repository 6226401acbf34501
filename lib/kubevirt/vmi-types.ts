/** VirtualMachineInstance: one run of a guest. */
import type { Condition, KubeObject, ObjectMeta, Quantity } from './meta';
import type { VMIPhase } from './enums';
import type { VirtualMachineInstanceSpec } from './vmi-spec-types';

export interface VMIMigrationState {
  migrationUid?: string;
  startTimestamp?: string;
  endTimestamp?: string;
  sourceNode?: string;
  sourcePod?: string;
  targetNode?: string;
  targetPod?: string;
  targetNodeAddress?: string;
  targetDirectMigrationNodePorts?: Record<string, number>;
  targetNodeDomainDetected?: boolean;
  targetNodeDomainReadyTimestamp?: string;
  completed?: boolean;
  failed?: boolean;
  failureReason?: string;
  abortRequested?: boolean;
  abortStatus?: 'Aborting' | 'Succeeded' | 'Failed';
  mode?: 'PreCopy' | 'PostCopy' | 'Paused';
  migrationPolicyName?: string;
  migrationConfiguration?: Record<string, unknown>;
}

export interface VMIInterfaceStatus {
  name?: string;
  ipAddress?: string;
  ipAddresses?: string[];
  mac?: string;
  interfaceName?: string;
  podInterfaceName?: string;
  infoSource?: string;
  queueCount?: number;
  linkState?: string;
}

export interface VMIVolumeStatus {
  name: string;
  target: string;
  phase?: string;
  reason?: string;
  message?: string;
  size?: number;
  hotplugVolume?: Record<string, unknown>;
  persistentVolumeClaimInfo?: {
    claimName?: string;
    accessModes?: string[];
    volumeMode?: string;
    capacity?: Record<string, string>;
    requests?: Record<string, string>;
    filesystemOverhead?: string;
  };
}

export interface VirtualMachineInstanceStatus {
  phase?: VMIPhase;
  reason?: string;
  nodeName?: string;
  conditions?: Condition[];
  phaseTransitionTimestamps?: { phase: VMIPhase; phaseTransitionTimestamp: string }[];
  /** "frozen" while the guest agent holds its filesystems frozen (freeze subresource, online snapshots) */
  fsFreezeStatus?: string;
  interfaces?: VMIInterfaceStatus[];
  guestOSInfo?: Record<string, string>;
  migrationState?: VMIMigrationState;
  migrationMethod?: 'LiveMigration' | 'BlockMigration';
  migrationTransport?: 'Unix';
  activePods?: Record<string, string>;
  qosClass?: string;
  launcherContainerImageVersion?: string;
  evacuationNodeName?: string;
  volumeStatus?: VMIVolumeStatus[];
  currentCPUTopology?: { sockets?: number; cores?: number; threads?: number };
  memory?: { guestAtBoot?: Quantity; guestCurrent?: Quantity; guestRequested?: Quantity };
  machine?: { type: string };
  virtualMachineRevisionName?: string;
}

export interface VirtualMachineInstance extends KubeObject {
  metadata: ObjectMeta;
  spec: VirtualMachineInstanceSpec;
  status?: VirtualMachineInstanceStatus;
}

