/** snapshot.kubevirt.io/v1beta1 as the snapshot controller reads and writes it. */
export const SNAPSHOT_GROUP = 'snapshot.kubevirt.io';
export const SNAPSHOT_VERSION = 'v1beta1';
export const CONTENT_FINALIZER = 'snapshot.kubevirt.io/vmsnapshotcontent-protection';

export interface Condition { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string; lastProbeTime?: string | null }

interface Meta { name?: string; creationTimestamp?: string; namespace?: string; uid?: string; resourceVersion?: string; deletionTimestamp?: string; finalizers?: string[]; ownerReferences?: { uid?: string; kind?: string; name?: string; controller?: boolean }[]; labels?: Record<string, string>; annotations?: Record<string, string> }

export interface VMSnapshot {
  metadata: Meta;
  spec: { source: { apiGroup?: string; kind: string; name: string }; deletionPolicy?: 'delete' | 'retain'; failureDeadline?: string };
  status?: {
    phase?: 'InProgress' | 'Succeeded' | 'Failed' | 'Unknown';
    readyToUse?: boolean;
    sourceUID?: string;
    creationTime?: string;
    virtualMachineSnapshotContentName?: string;
    indications?: string[];
    conditions?: Condition[];
    error?: { message?: string; time?: string };
    snapshotVolumes?: { includedVolumes?: string[]; excludedVolumes?: string[] };
  };
}

export interface VolumeBackup {
  volumeName: string;
  persistentVolumeClaim: { metadata: { name: string; namespace?: string }; spec: Record<string, unknown> };
  volumeSnapshotName: string;
}

export interface VMSnapshotContent {
  metadata: Meta;
  spec: {
    virtualMachineSnapshotName: string;
    source: { virtualMachine: { metadata: Meta; spec: Record<string, unknown> } };
    volumeBackups?: VolumeBackup[];
  };
  status?: { readyToUse?: boolean; creationTime?: string; error?: { message?: string; time?: string }; volumeSnapshotStatus?: { volumeSnapshotName: string; readyToUse: boolean; creationTime?: string }[] };
}

export interface VMRestore {
  metadata: Meta;
  spec: { target: { apiGroup?: string; kind: string; name: string }; virtualMachineSnapshotName: string; patches?: string[]; targetReadinessPolicy?: string;
    volumeRestorePolicy?: string; volumeOwnershipPolicy?: string;
    volumeRestoreOverrides?: { volumeName?: string; restoreName?: string; labels?: Record<string, string>; annotations?: Record<string, string> }[];
  };
  status?: { complete?: boolean; restoreTime?: string; conditions?: Condition[]; restores?: { volumeName: string; persistentVolumeClaim: string; volumeSnapshotName: string }[] };
}
