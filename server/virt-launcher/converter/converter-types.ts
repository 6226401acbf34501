/** Input and output of the VMI → QEMU converter (`renderQemuArgs`). */
import type { LauncherVMI } from '../vmi-types';
import type { HostPort } from '../protocol';
import type { TPMPlan } from './qemu-args-tpm';

/** Mirrors `server/images/image-store.ts` (structural copy so the converter stays pure). */
export interface ImageEntry {
  name: string;
  dir: string;
  format: 'qcow2' | 'raw' | 'iso';
  disk?: string;
  kernel?: string;
  initrd?: string;
  cmdline?: string;
}

export interface OvmfFiles { code: string; vars: string; secureBootCode?: string; secureBootVars?: string }

export interface ConverterInput {
  vmi: LauncherVMI;
  podDir: string;
  accel: 'kvm' | 'tcg';
  image: (ref: string) => ImageEntry | undefined;
  /** volume name → the ISO the launcher wrote for it (cloud-init and config volumes) */
  cloudInitMedia: Record<string, string>;
  ovmf?: OvmfFiles;
  /** picks the loopback port forwarded to a guest port (launcher: a free port). */
  allocateHostPort?: (p: { protocol: 'TCP' | 'UDP'; port: number }) => number;
  /** The launcher Pod's own address on the pod network (unset when the Pod shares the host's). */
  podIP?: string;
  /** the pod interface's tap in the Pod namespace (masquerade/bridge binding); unset → user networking */
  podTap?: { ifaceName: string; device: string; vhost: boolean };
  /**
   * The claim behind a volume (persistentVolumeClaim, dataVolume, ephemeral), by volume name, as
   * the kubelet made it visible to the Pod; undefined → FailedPvcNotFound.
   */
  claim?: (volumeName: string) => ClaimMount | undefined;
  /** the hugetlbfs mount holding pages of this size (`2Mi`, `1Gi`); undefined → none on this node. */
  hugepagesMount?: (pageSize: string) => string | undefined;
  /** migration target: `-incoming defer`. */
  incoming?: boolean;
  /** the moment the guest's RTC starts from (a clock offset or time zone); default now */
  now?: Date;
  binary?: string;
}

/** A claim as the launcher Pod sees it: a directory holding disk.img (Filesystem) or the device (Block). */
export interface ClaimMount {
  path: string;
  block: boolean;
  /** ReadWriteMany: every node sees the same data, so a migration copies nothing */
  shared?: boolean;
  /** the claim's capacity (VMI status volumeStatus); sizes a missing disk.img */
  capacityBytes?: number;
}

/** A file the launcher must create before starting QEMU. */
export type FileToCreate =
  | { kind: 'overlay'; path: string; backing: string; backingFormat: 'qcow2' | 'raw' }
  | { kind: 'emptyDisk'; path: string; sizeBytes: number }
  | { kind: 'copy'; path: string; source: string }
  /** a hostDisk of type DiskOrCreate: a sparse raw file of this size where none exists */
  | { kind: 'rawDisk'; path: string; sizeBytes: number }
  /** a hostDisk of type Disk: the file must already be there */
  | { kind: 'mustExist'; path: string; what: string };

export interface ConverterOutput {
  binary: string;
  args: string[];
  files: FileToCreate[];
  machine: string;
  hostPorts: HostPort[];
  /** block nodes (`drive-<disk>`) on shared storage: not copied by a live migration */
  sharedDisks: string[];
  /** devices.tpm: the swtpm the launcher starts before QEMU */
  tpm?: TPMPlan;
  interfaces: { name: string; mac: string; ipAddress: string }[];
  vcpus: number;
  memoryBytes: number;
}

/** What each part of the converter contributes. */
export interface ArgsPart { args: string[]; files?: FileToCreate[] }
