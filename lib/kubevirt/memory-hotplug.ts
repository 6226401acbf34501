/**
 * PURE: live memory changes (KubeVirt's memory hotplug with `vmRolloutStrategy: LiveUpdate`).
 * A VMI started under LiveUpdate with `memory.guest` gets `memory.maxGuest`; the launcher boots it
 * with a virtio-mem device of `maxGuest − guestAtBoot`. Raising (or lowering, not below what it
 * booted with) the VM's `memory.guest` within maxGuest patches the VMI, which then moves by live
 * migration into a Pod sized for the new memory, where the device's requested size is set.
 */
import { parseQuantity, formatBinaryQuantity } from './quantity';
import { DEFAULT_MAX_HOTPLUG_RATIO } from './cpu-hotplug';
import type { KubeVirtConfiguration } from './kubevirt-cr';
import type { VirtualMachineInstanceSpec } from './vmi-spec-types';
import type { VirtualMachineInstance } from './vmi-types';

/** virtio-mem block size (a transparent hugepage on x86_64, what QEMU recommends) */
export const HOTPLUG_BLOCK_BYTES = 2 * 2 ** 20;
/** block size when guest memory is 1Gi hugepages */
export const HOTPLUG_1GI_BLOCK_BYTES = 2 ** 30;
/** KubeVirt's minimum guest memory for memory hotplug (room for the kernel's structures and swiotlb) */
export const MIN_HOTPLUG_GUEST_BYTES = 2 ** 30;
/** the VMI condition KubeVirt keeps while a memory change is in flight (True) or failed (False) */
export const MEMORY_CHANGE_CONDITION = 'HotMemoryChange';
/** the annotation KubeVirt's workload updater puts on the migrations it creates */
export const WORKLOAD_UPDATE_MIGRATION_ANNOTATION = 'kubevirt.io/workloadUpdateMigration';

/** The id of the virtio-mem device (QOM path /machine/peripheral/<id>) and its memory backend. */
export const VIRTIO_MEM_ID = 'virtiomem0';
export const VIRTIO_MEM_BACKEND_ID = 'mem-virtiomem0';

const bytes = (q: unknown): number | undefined => {
  const v = parseQuantity(q);
  return v === undefined ? undefined : Math.ceil(v);
};

export function hotplugBlockBytes(spec: VirtualMachineInstanceSpec): number {
  return spec.domain.memory?.hugepages?.pageSize === '1Gi' ? HOTPLUG_1GI_BLOCK_BYTES : HOTPLUG_BLOCK_BYTES;
}

/**
 * KubeVirt's ValidateLiveUpdateMemory: why `spec` cannot hot-plug memory up to `maxGuest`, with
 * KubeVirt's messages; undefined when it can.
 */
export function validateLiveUpdateMemory(spec: VirtualMachineInstanceSpec, maxGuest: unknown): string | undefined {
  const block = hotplugBlockBytes(spec);
  const alignment = formatBinaryQuantity(block);
  const guest = bytes(spec.domain.memory?.guest);
  if (guest === undefined) return 'Guest memory must be configured when memory hotplug is enabled';
  const max = bytes(maxGuest);
  if (max === undefined) return 'Max guest memory must be configured when memory hotplug is enabled';
  if (guest > max) return 'Guest memory is greater than the configured maxGuest memory';
  if (guest % block !== 0) return `Guest memory must be ${alignment} aligned`;
  if (max % block !== 0) return `MaxGuest must be ${alignment} aligned`;
  if (spec.architecture && spec.architecture !== 'amd64') return 'Memory hotplug is only available for x86_64 VMs';
  if (guest < MIN_HOTPLUG_GUEST_BYTES) return 'Memory hotplug is only available for VMs with at least 1Gi of guest memory';
  return undefined;
}

/**
 * maxGuest for a VMI started with LiveUpdate (KubeVirt's setupMemoryHotplug): the VM's own, else
 * the cluster's liveUpdateConfiguration.maxGuest, else guest × maxHotplugRatio (4); undefined when
 * the VM cannot hot-plug memory (no `memory.guest`, under 1Gi, unaligned, hugepages here).
 */
export function defaultMaxGuest(spec: VirtualMachineInstanceSpec, live?: KubeVirtConfiguration['liveUpdateConfiguration']): string | undefined {
  const memory = spec.domain.memory;
  if (memory?.maxGuest !== undefined) return String(memory.maxGuest);
  if (memory?.hugepages) return undefined; // not supported here (docs/hotplug.md)
  const guest = bytes(memory?.guest);
  if (guest === undefined) return undefined;
  const ratio = typeof live?.maxHotplugRatio === 'number' && Number.isInteger(live.maxHotplugRatio) && live.maxHotplugRatio > 0 ? live.maxHotplugRatio : DEFAULT_MAX_HOTPLUG_RATIO;
  const maxGuest = live?.maxGuest !== undefined ? String(live.maxGuest) : formatBinaryQuantity(guest * ratio);
  return validateLiveUpdateMemory(spec, maxGuest) === undefined ? maxGuest : undefined;
}

/** The virtio-mem device of a VMI with maxGuest: its region and how much of it is requested. */
export interface VirtioMemPlan { bootBytes: number; maxBytes: number; regionBytes: number; requestedBytes: number; blockBytes: number }

/**
 * Boot memory is `status.memory.guestAtBoot` (else guest); the device spans maxGuest − boot and
 * requests guest − boot (a migration target started after a change boots with the same region).
 * Undefined without a maxGuest above the boot memory.
 */
export function virtioMemPlan(spec: VirtualMachineInstanceSpec, status?: { memory?: { guestAtBoot?: unknown } }): VirtioMemPlan | undefined {
  const max = bytes(spec.domain.memory?.maxGuest);
  const guest = bytes(spec.domain.memory?.guest);
  if (max === undefined || guest === undefined) return undefined;
  const bootBytes = bytes(status?.memory?.guestAtBoot) ?? guest;
  if (max <= bootBytes) return undefined;
  const requestedBytes = Math.min(Math.max(0, guest - bootBytes), max - bootBytes);
  return { bootBytes, maxBytes: max, regionBytes: max - bootBytes, requestedBytes, blockBytes: hotplugBlockBytes(spec) };
}

export type MemoryLiveUpdate =
  | { kind: 'none' }
  /** a change is in flight (or the VMI is migrating): try again when it settles */
  | { kind: 'wait'; message: string }
  /** patch the running VMI: its guest memory and the resources that size its next Pod */
  | { kind: 'hotplug'; guest: string; requestsMemory?: string; limitsMemory?: string }
  | { kind: 'restart'; message: string };

const hasCondition = (vmi: VirtualMachineInstance, status?: string) =>
  (vmi.status?.conditions ?? []).some((c) => c.type === MEMORY_CHANGE_CONDITION && (status === undefined || c.status === status));

/**
 * KubeVirt's handleMemoryHotplugRequest: what the VM template's `memory.guest` (`wanted`, the
 * template's spec) means for the running VMI. Other fields are compared elsewhere.
 */
export function planMemoryLiveUpdate(wanted: VirtualMachineInstanceSpec | undefined, vmi: VirtualMachineInstance, migrating: boolean): MemoryLiveUpdate {
  const want = wanted?.domain?.memory?.guest;
  const running = vmi.spec.domain.memory;
  const wantBytes = bytes(want);
  const haveBytes = bytes(running?.guest);
  const current = bytes(vmi.status?.memory?.guestCurrent) ?? haveBytes;
  if (!wanted || wantBytes === undefined || haveBytes === undefined || current === undefined) return { kind: 'none' };
  if (hasCondition(vmi, 'False')) return { kind: 'restart', message: 'memory updated in template spec. Memory-hotplug failed and is not available for this VM configuration' };
  if (wantBytes === haveBytes) return { kind: 'none' };
  if (!running?.maxGuest) return { kind: 'restart', message: 'memory updated in template spec. Memory-hotplug is not available for this VM configuration' };
  if (hasCondition(vmi, 'True')) return { kind: 'wait', message: 'another memory hotplug is in progress' };
  if (migrating) return { kind: 'wait', message: 'memory hotplug is not allowed while VMI is migrating' };
  const invalid = validateLiveUpdateMemory(wanted, running.maxGuest);
  if (invalid) return { kind: 'restart', message: `memory hotplug not supported, ${invalid}` };
  const atBoot = bytes(vmi.status?.memory?.guestAtBoot);
  if (atBoot !== undefined && wantBytes < atBoot) return { kind: 'restart', message: 'memory updated in template spec to a value lower than what the VM started with' };
  const max = bytes(running.maxGuest) ?? 0;
  if (wantBytes > max) return { kind: 'restart', message: "memory updated in template spec to a value higher than what's available" };
  let delta = wantBytes - current;
  const plan: MemoryLiveUpdate = { kind: 'hotplug', guest: String(want) };
  const requests = bytes(vmi.spec.domain.resources?.requests?.memory);
  if (requests) {
    let next = requests + delta;
    if (next < wantBytes) { next = wantBytes; delta = wantBytes - next; }
    plan.requestsMemory = formatBinaryQuantity(next);
  }
  const limits = bytes(vmi.spec.domain.resources?.limits?.memory);
  if (wanted.domain.resources?.limits?.memory !== undefined && limits) plan.limitsMemory = formatBinaryQuantity(limits + delta);
  return plan;
}
