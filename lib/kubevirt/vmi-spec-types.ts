/**
 * The part of VirtualMachineInstanceSpec (kubevirt.io/v1 schema.go) we use.
 * Hand-written and focused; field names verbatim. Objects from the API server may
 * carry more fields: keep unknown fields when copying.
 */
import type { Quantity, ResourceList } from './meta';

export type DiskBus = 'virtio' | 'sata' | 'scsi' | 'usb';

export interface DiskTarget { bus?: DiskBus; readonly?: boolean; pciAddress?: string }
export interface CDRomTarget { bus?: DiskBus; readonly?: boolean; tray?: 'open' | 'closed' }
export interface LunTarget { bus?: DiskBus; readonly?: boolean; reservation?: boolean }

export interface Disk {
  name: string;
  disk?: DiskTarget;
  cdrom?: CDRomTarget;
  lun?: LunTarget;
  bootOrder?: number;
  serial?: string;
  cache?: 'none' | 'writethrough' | 'writeback';
  io?: 'native' | 'threads';
  dedicatedIOThread?: boolean;
  errorPolicy?: 'stop' | 'ignore' | 'report' | 'enospace';
  shareable?: boolean;
}

export interface Port { name?: string; port: number; protocol?: 'TCP' | 'UDP' }

export interface Interface {
  name: string;
  masquerade?: Record<string, never>;
  bridge?: Record<string, never>;
  sriov?: Record<string, never>;
  passtBinding?: Record<string, never>;
  binding?: { name: string };
  model?: string;
  macAddress?: string;
  ports?: Port[];
  bootOrder?: number;
  pciAddress?: string;
  state?: 'up' | 'down' | 'absent';
}

export interface Input { name: string; type?: 'tablet'; bus?: 'usb' | 'virtio' }

export interface Devices {
  disks?: Disk[];
  interfaces?: Interface[];
  inputs?: Input[];
  autoattachPodInterface?: boolean;
  autoattachGraphicsDevice?: boolean;
  autoattachSerialConsole?: boolean;
  autoattachMemBalloon?: boolean;
  autoattachInputDevice?: boolean;
  logSerialConsole?: boolean;
  rng?: Record<string, never>;
  watchdog?: { name: string; i6300esb?: { action?: 'reset' | 'poweroff' | 'shutdown' } };
  sound?: { name: string; model?: 'ich9' | 'ac97' };
  /** an emulated TPM 2.0 (swtpm); persistent: its state lives in the VM's backend storage claim */
  tpm?: { enabled?: boolean; persistent?: boolean };
  networkInterfaceMultiqueue?: boolean;
  blockMultiQueue?: boolean;
}

export interface CPU {
  sockets?: number;
  cores?: number;
  threads?: number;
  maxSockets?: number;
  model?: string;
  features?: { name: string; policy?: string }[];
  dedicatedCpuPlacement?: boolean;
  isolateEmulatorThread?: boolean;
}

export interface Memory {
  guest?: Quantity;
  maxGuest?: Quantity;
  hugepages?: { pageSize: string };
}

export interface Firmware {
  uuid?: string;
  serial?: string;
  bootloader?: { bios?: { useSerial?: boolean }; efi?: { secureBoot?: boolean; persistent?: boolean } };
  kernelBoot?: {
    kernelArgs?: string;
    container?: { image: string; kernelPath?: string; initrdPath?: string; imagePullPolicy?: string };
  };
}

export interface FeatureState { enabled?: boolean }

export interface DomainSpec {
  cpu?: CPU;
  memory?: Memory;
  resources?: { requests?: ResourceList; limits?: ResourceList; overcommitGuestOverhead?: boolean };
  machine?: { type?: string };
  firmware?: Firmware;
  features?: { acpi?: FeatureState; apic?: FeatureState; smm?: FeatureState; [k: string]: unknown };
  clock?: Record<string, unknown>;
  devices: Devices;
}

export interface CloudInitNoCloudSource {
  userData?: string;
  userDataBase64?: string;
  secretRef?: { name: string };
  networkData?: string;
  networkDataBase64?: string;
  networkDataSecretRef?: { name: string };
}

export interface Volume {
  name: string;
  containerDisk?: { image: string; path?: string; imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never'; imagePullSecret?: string };
  cloudInitNoCloud?: CloudInitNoCloudSource;
  cloudInitConfigDrive?: CloudInitNoCloudSource;
  emptyDisk?: { capacity: Quantity };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean; hotpluggable?: boolean };
  dataVolume?: { name: string; hotpluggable?: boolean };
  ephemeral?: { persistentVolumeClaim: { claimName: string; readOnly?: boolean } };
  hostDisk?: { path: string; type: 'Disk' | 'DiskOrCreate'; capacity?: Quantity; shared?: boolean };
  configMap?: { name: string; optional?: boolean; volumeLabel?: string };
  secret?: { secretName: string; optional?: boolean; volumeLabel?: string };
  serviceAccount?: { serviceAccountName: string };
  downwardAPI?: { fields?: { path: string; fieldRef?: { fieldPath: string } }[]; volumeLabel?: string };
  downwardMetrics?: Record<string, never>;
  sysprep?: Record<string, unknown>;
  memoryDump?: Record<string, unknown>;
  containerPath?: Record<string, unknown>;
}

export interface Network {
  name: string;
  pod?: { vmNetworkCIDR?: string; vmIPv6NetworkCIDR?: string };
  multus?: { networkName: string; default?: boolean };
}

export interface Probe {
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  httpGet?: Record<string, unknown>;
  tcpSocket?: Record<string, unknown>;
  exec?: Record<string, unknown>;
  guestAgentPing?: Record<string, never>;
}

export interface VirtualMachineInstanceSpec {
  domain: DomainSpec;
  volumes?: Volume[];
  networks?: Network[];
  architecture?: string;
  terminationGracePeriodSeconds?: number;
  evictionStrategy?: 'None' | 'LiveMigrate' | 'LiveMigrateIfPossible' | 'External';
  startStrategy?: 'Paused';
  nodeSelector?: Record<string, string>;
  affinity?: Record<string, unknown>;
  tolerations?: Record<string, unknown>[];
  schedulerName?: string;
  priorityClassName?: string;
  hostname?: string;
  subdomain?: string;
  dnsPolicy?: string;
  dnsConfig?: { nameservers?: string[]; searches?: string[]; options?: { name: string; value?: string }[] };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
}
