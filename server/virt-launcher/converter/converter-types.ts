/** Input and output of the VMI → QEMU converter (`renderQemuArgs`). */
import type { LauncherVMI } from '../vmi-types';
import type { HostPort } from '../protocol';

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
  /** volume name → generated cloud-init media (ISO) in the pod dir. */
  cloudInitMedia: Record<string, string>;
  ovmf?: OvmfFiles;
  /** picks the loopback port forwarded to a guest port (launcher: a free port). */
  allocateHostPort?: (p: { protocol: 'TCP' | 'UDP'; port: number }) => number;
  /** The launcher Pod's own address on the pod network (unset when the Pod shares the host's). */
  podIP?: string;
  /** resolves a PVC claim (ephemeral volumes) to a file; undefined → FailedPvcNotFound. */
  claim?: (claimName: string) => { path: string; format: 'qcow2' | 'raw' } | undefined;
  /** migration target: `-incoming defer`. */
  incoming?: boolean;
  binary?: string;
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
  interfaces: { name: string; mac: string; ipAddress: string }[];
  vcpus: number;
  memoryBytes: number;
}

/** What each part of the converter contributes. */
export interface ArgsPart { args: string[]; files?: FileToCreate[] }
