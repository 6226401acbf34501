/**
 * Instance types and preferences (instancetype.kubevirt.io/v1beta1), pure: the types, and how a VM's
 * template spec is expanded with them, as KubeVirt applies them. An instance type SETS resources
 * (CPU count and topology, guest memory, node selector, scheduler) and any of those already set in
 * the VM is a conflict; a preference only fills what the VM left unset.
 */
import type { KubeObject } from './meta';
import type { VirtualMachineInstanceSpec } from './vmi-spec-types';

export const INSTANCETYPE_GROUP = 'instancetype.kubevirt.io';
export const INSTANCETYPE_VERSION = 'v1beta1';

export type InstancetypeKind = 'VirtualMachineInstancetype' | 'VirtualMachineClusterInstancetype';
export type PreferenceKind = 'VirtualMachinePreference' | 'VirtualMachineClusterPreference';
export const DEFAULT_INSTANCETYPE_KIND: InstancetypeKind = 'VirtualMachineClusterInstancetype';
export const DEFAULT_PREFERENCE_KIND: PreferenceKind = 'VirtualMachineClusterPreference';

export interface InstancetypeSpec {
  cpu: { guest: number; model?: string; maxSockets?: number; dedicatedCPUPlacement?: boolean; isolateEmulatorThread?: boolean };
  memory: { guest: string; maxGuest?: string; overcommitPercent?: number; hugepages?: { pageSize: string } };
  nodeSelector?: Record<string, string>;
  schedulerName?: string;
  annotations?: Record<string, string>;
}

export type PreferredTopology = 'sockets' | 'cores' | 'threads' | 'spread' | 'any' | 'preferSockets' | 'preferCores' | 'preferThreads' | 'preferSpread' | 'preferAny';

export interface PreferenceSpec {
  cpu?: { preferredCPUTopology?: PreferredTopology };
  devices?: {
    preferredDiskBus?: 'virtio' | 'sata' | 'scsi' | 'usb';
    preferredCdromBus?: 'sata' | 'scsi';
    preferredLunBus?: 'virtio' | 'sata' | 'scsi';
    preferredDiskCache?: 'none' | 'writethrough' | 'writeback';
    preferredDiskIO?: 'native' | 'threads';
    preferredInterfaceModel?: string;
    preferredAutoattachGraphicsDevice?: boolean;
    preferredAutoattachSerialConsole?: boolean;
    preferredAutoattachMemBalloon?: boolean;
    preferredRng?: Record<string, never>;
  };
  machine?: { preferredMachineType?: string };
  firmware?: { preferredUseEfi?: boolean; preferredUseSecureBoot?: boolean; preferredUseBios?: boolean };
  preferredTerminationGracePeriodSeconds?: number;
  annotations?: Record<string, string>;
}

export interface Instancetype extends KubeObject { spec: InstancetypeSpec }
export interface Preference extends KubeObject { spec: PreferenceSpec }

/** KubeVirt's message for fields the VM sets that its instance type also sets. */
export function conflictsMessage(fields: string[]): string {
  return `VM field(s) ${fields.join(', ')} conflicts with selected instance type`;
}

export interface Expansion {
  spec: VirtualMachineInstanceSpec;
  annotations: Record<string, string>;
  /** paths (under `field`) the VM sets while the instance type sets them too */
  conflicts: string[];
}

function cpuConflicts(field: string, it: InstancetypeSpec, spec: VirtualMachineInstanceSpec): string[] {
  const cpu = spec.domain.cpu ?? {};
  const res = spec.domain.resources ?? {};
  const out: string[] = [];
  if (res.requests?.cpu !== undefined) out.push(`${field}.domain.resources.requests.cpu`);
  if (res.limits?.cpu !== undefined) out.push(`${field}.domain.resources.limits.cpu`);
  for (const k of ['sockets', 'cores', 'threads'] as const) if (cpu[k]) out.push(`${field}.domain.cpu.${k}`);
  if (cpu.model && it.cpu.model !== undefined) out.push(`${field}.domain.cpu.model`);
  return out;
}

function memoryConflicts(field: string, it: InstancetypeSpec, spec: VirtualMachineInstanceSpec): string[] {
  const mem = spec.domain.memory ?? {};
  const res = spec.domain.resources ?? {};
  if (mem.guest !== undefined) return [`${field}.domain.memory.guest`];
  if (mem.hugepages && it.memory.hugepages) return [`${field}.domain.memory.hugepages`];
  if (mem.maxGuest !== undefined && it.memory.maxGuest !== undefined) return [`${field}.domain.memory.maxGuest`];
  if (res.requests?.memory !== undefined) return [`${field}.domain.resources.requests.memory`];
  if (res.limits?.memory !== undefined) return [`${field}.domain.resources.limits.memory`];
  return [];
}

/** Sockets × cores × threads for `vcpus` under a preference's topology (KubeVirt's default: sockets). */
export function cpuTopology(vcpus: number, preferred: PreferredTopology | undefined): { sockets: number; cores: number; threads: number } {
  const t = { sockets: 1, cores: 1, threads: 1 };
  if (vcpus <= 1) return t;
  switch (preferred) {
    case 'cores': case 'preferCores': return { ...t, cores: vcpus };
    case 'threads': case 'preferThreads': return { ...t, threads: vcpus };
    case 'spread': case 'preferSpread': return vcpus % 2 === 0 ? { ...t, sockets: vcpus / 2, cores: 2 } : { ...t, sockets: vcpus };
    default: return { ...t, sockets: vcpus };
  }
}

function applyInstancetypeSpec(field: string, it: InstancetypeSpec, pref: PreferenceSpec | undefined, spec: VirtualMachineInstanceSpec): string[] {
  const conflicts: string[] = [];
  if (it.nodeSelector && spec.nodeSelector) conflicts.push(`${field}.nodeSelector`);
  if (it.schedulerName && spec.schedulerName) conflicts.push(`${field}.schedulerName`);
  conflicts.push(...cpuConflicts(field, it, spec), ...memoryConflicts(field, it, spec));
  if (conflicts.length) return conflicts;
  if (it.nodeSelector) spec.nodeSelector = { ...it.nodeSelector };
  if (it.schedulerName) spec.schedulerName = it.schedulerName;
  const cpu = { ...spec.domain.cpu, ...cpuTopology(it.cpu.guest, pref?.cpu?.preferredCPUTopology) };
  if (it.cpu.model !== undefined) cpu.model = it.cpu.model;
  if (it.cpu.maxSockets !== undefined) cpu.maxSockets = it.cpu.maxSockets;
  spec.domain.cpu = cpu;
  spec.domain.memory = { ...spec.domain.memory, guest: it.memory.guest };
  if (it.memory.maxGuest !== undefined) spec.domain.memory.maxGuest = it.memory.maxGuest;
  if (it.memory.hugepages) spec.domain.memory.hugepages = { ...it.memory.hugepages };
  return [];
}

/** Preference values land only where the VM says nothing. */
function applyPreferenceSpec(pref: PreferenceSpec, spec: VirtualMachineInstanceSpec): void {
  const d = pref.devices ?? {};
  const devices = spec.domain.devices;
  for (const disk of devices.disks ?? []) {
    if (!disk.disk && !disk.cdrom && !disk.lun) disk.disk = {};
    if (disk.disk && d.preferredDiskBus && !disk.disk.bus) disk.disk.bus = d.preferredDiskBus;
    if (disk.disk && d.preferredDiskCache && !disk.cache) disk.cache = d.preferredDiskCache;
    if (disk.disk && d.preferredDiskIO && !disk.io) disk.io = d.preferredDiskIO;
    if (disk.cdrom && d.preferredCdromBus && !disk.cdrom.bus) disk.cdrom.bus = d.preferredCdromBus;
    if (disk.lun && d.preferredLunBus && !disk.lun.bus) disk.lun.bus = d.preferredLunBus;
  }
  for (const iface of devices.interfaces ?? []) if (d.preferredInterfaceModel && !iface.model) iface.model = d.preferredInterfaceModel;
  if (d.preferredAutoattachGraphicsDevice !== undefined && devices.autoattachGraphicsDevice === undefined) devices.autoattachGraphicsDevice = d.preferredAutoattachGraphicsDevice;
  if (d.preferredAutoattachSerialConsole !== undefined && devices.autoattachSerialConsole === undefined) devices.autoattachSerialConsole = d.preferredAutoattachSerialConsole;
  if (d.preferredAutoattachMemBalloon !== undefined && devices.autoattachMemBalloon === undefined) devices.autoattachMemBalloon = d.preferredAutoattachMemBalloon;
  if (d.preferredRng && !devices.rng) devices.rng = {};
  if (pref.machine?.preferredMachineType && !spec.domain.machine?.type) spec.domain.machine = { ...spec.domain.machine, type: pref.machine.preferredMachineType };
  const fw = pref.firmware;
  if (fw && !spec.domain.firmware?.bootloader) {
    if (fw.preferredUseEfi) spec.domain.firmware = { ...spec.domain.firmware, bootloader: { efi: { secureBoot: fw.preferredUseSecureBoot ?? false } } };
    else if (fw.preferredUseBios) spec.domain.firmware = { ...spec.domain.firmware, bootloader: { bios: {} } };
  }
  if (pref.preferredTerminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds === undefined) spec.terminationGracePeriodSeconds = pref.preferredTerminationGracePeriodSeconds;
}

/**
 * The VM template spec expanded with its instance type and preference (either may be absent).
 * `field` is where the spec sits (`spec.template.spec`), for the conflict paths. Never mutates its input.
 */
export function expandSpec(field: string, input: VirtualMachineInstanceSpec, it: InstancetypeSpec | undefined, pref: PreferenceSpec | undefined): Expansion {
  const spec = structuredClone(input);
  spec.domain = spec.domain ?? { devices: {} };
  spec.domain.devices = spec.domain.devices ?? {};
  const annotations: Record<string, string> = {};
  if (it) {
    const conflicts = applyInstancetypeSpec(field, it, pref, spec);
    if (conflicts.length) return { spec: input, annotations, conflicts };
    Object.assign(annotations, it.annotations);
  }
  if (pref) {
    applyPreferenceSpec(pref, spec);
    for (const [k, v] of Object.entries(pref.annotations ?? {})) annotations[k] ??= v;
  }
  return { spec, annotations, conflicts: [] };
}
