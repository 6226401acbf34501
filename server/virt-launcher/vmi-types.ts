/**
 * The part of a kubevirt.io/v1 VirtualMachineInstance the launcher reads.
 * Structural and loose on purpose: virt-handler passes the object it got from the
 * API server as is; unknown fields are ignored, and every value is validated by the
 * converter before it reaches a QEMU argument.
 */
export interface LauncherVMI {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; uid?: string; [k: string]: unknown };
  spec: VMISpec;
  status?: Record<string, unknown>;
}

export interface VMISpec {
  domain: DomainSpec;
  volumes?: Volume[];
  networks?: Network[];
  terminationGracePeriodSeconds?: number;
  startStrategy?: 'Paused' | string;
  hostname?: string;
  [k: string]: unknown;
}

export interface DomainSpec {
  machine?: { type?: string };
  cpu?: { sockets?: number; cores?: number; threads?: number; model?: string };
  memory?: { guest?: string | number };
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  firmware?: Firmware;
  features?: { acpi?: { enabled?: boolean } };
  devices?: Devices;
  [k: string]: unknown;
}

export interface Firmware {
  uuid?: string;
  serial?: string;
  bootloader?: { bios?: { useSerial?: boolean }; efi?: { secureBoot?: boolean; persistent?: boolean } };
  kernelBoot?: {
    kernelArgs?: string;
    container?: { image: string; kernelPath?: string; initrdPath?: string };
  };
}

export type DiskBus = 'virtio' | 'sata' | 'scsi' | 'usb';

export interface Disk {
  name: string;
  disk?: { bus?: DiskBus; readonly?: boolean };
  cdrom?: { bus?: DiskBus; readonly?: boolean };
  lun?: { bus?: DiskBus; readonly?: boolean };
  bootOrder?: number;
  serial?: string;
  cache?: 'none' | 'writethrough' | 'writeback';
}

export interface Interface {
  name: string;
  masquerade?: Record<string, never>;
  bridge?: Record<string, never>;
  model?: string;
  macAddress?: string;
  ports?: { name?: string; port: number; protocol?: 'TCP' | 'UDP' }[];
  bootOrder?: number;
}

export interface Devices {
  disks?: Disk[];
  interfaces?: Interface[];
  autoattachGraphicsDevice?: boolean;
  autoattachSerialConsole?: boolean;
  autoattachPodInterface?: boolean;
  autoattachMemBalloon?: boolean;
  inputs?: { name: string; type?: 'tablet'; bus?: 'usb' | 'virtio' }[];
  rng?: Record<string, never>;
  watchdog?: { name: string; i6300esb?: { action?: 'reset' | 'poweroff' | 'shutdown' } };
}

export interface Volume {
  name: string;
  containerDisk?: { image: string; path?: string };
  emptyDisk?: { capacity: string };
  ephemeral?: { persistentVolumeClaim?: { claimName: string } };
  cloudInitNoCloud?: CloudInitSource;
  cloudInitConfigDrive?: CloudInitSource;
  [k: string]: unknown;
}

export interface CloudInitSource {
  userData?: string;
  userDataBase64?: string;
  networkData?: string;
  networkDataBase64?: string;
}

export interface Network {
  name: string;
  pod?: Record<string, unknown>;
  multus?: Record<string, unknown>;
}
