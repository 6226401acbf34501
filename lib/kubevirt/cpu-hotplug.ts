/**
 * PURE: live CPU changes (KubeVirt's CPU hotplug with `vmRolloutStrategy: LiveUpdate`).
 * A VMI started under LiveUpdate gets `maxSockets` (room for hot-added sockets); afterwards a
 * change of the VM's `cpu.sockets`, and nothing else, is copied to the running VMI instead of
 * asking for a restart.
 */
import { sameJSON } from './same-json';
import type { KubeVirtConfiguration } from './kubevirt-cr';
import type { VirtualMachineInstanceSpec } from './vmi-spec-types';

/** KubeVirt's liveUpdateConfiguration.maxHotplugRatio default */
export const DEFAULT_MAX_HOTPLUG_RATIO = 4;
/**
 * KubeVirt's upper bound on a VMI's vCPUs: its maxSockets defaulting keeps
 * maxSockets × cores × threads at or under 512 ("each machine type has a different maximum"),
 * and libvirt refuses more. KubeVirt has no admission rule for it; ours refuses more at admission.
 */
export const KUBEVIRT_MAX_VCPUS = 512;
/** QEMU 7.2's q35 limit, the bound our converter enforces at start; maxSockets defaulting stays under it (KubeVirt's 512 would not start here) */
export const MAX_HOTPLUG_VCPUS = 288;

export function isLiveUpdate(config: KubeVirtConfiguration | undefined): boolean {
  return config?.vmRolloutStrategy === 'LiveUpdate';
}

const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);

/**
 * maxSockets for a VMI started with LiveUpdate: the VM's own, else the cluster's
 * liveUpdateConfiguration.maxCpuSockets, else sockets × maxHotplugRatio (4); never below sockets
 * and never more sockets than fit MAX_HOTPLUG_VCPUS vCPUs. Undefined when the VM sets no socket
 * count (its topology comes from resources) — such a VMI cannot hot-plug CPUs.
 */
export function defaultMaxSockets(cpu: VirtualMachineInstanceSpec['domain']['cpu'], live?: KubeVirtConfiguration['liveUpdateConfiguration']): number | undefined {
  const sockets = cpu?.sockets;
  if (!Number.isInteger(sockets) || !sockets || sockets < 1) return undefined;
  const perSocket = Math.max(1, cpu?.cores || 1) * Math.max(1, cpu?.threads || 1);
  const ratio = positive(live?.maxHotplugRatio) ?? DEFAULT_MAX_HOTPLUG_RATIO;
  const wanted = positive(cpu?.maxSockets) ?? positive(live?.maxCpuSockets) ?? sockets * ratio;
  const cap = Math.max(sockets, Math.floor(MAX_HOTPLUG_VCPUS / perSocket));
  return Math.max(sockets, Math.min(wanted, cap));
}

/** The spec without the fields a live update may change (CPU sockets, guest memory) (compared to tell what else changed). */
function withoutLiveFields(spec: VirtualMachineInstanceSpec | undefined): unknown {
  const copy = JSON.parse(JSON.stringify(spec ?? {})) as VirtualMachineInstanceSpec;
  const cpu = copy.domain?.cpu;
  if (cpu) {
    delete cpu.sockets;
    delete cpu.maxSockets;
    if (Object.keys(cpu).length === 0) delete copy.domain.cpu;
  }
  const memory = copy.domain?.memory;
  if (memory) {
    delete memory.guest; // live too (memory-hotplug.ts), when the VMI has maxGuest
    if (Object.keys(memory).length === 0) delete copy.domain.memory;
  }
  return copy;
}

/** KubeVirt's RestartRequired message for a change that no live update covers (and for every change under Stage). */
export const NON_LIVE_UPDATABLE_MESSAGE = 'a non-live-updatable field was changed in the template spec';

export type CPULiveUpdate =
  | { kind: 'none' }
  /** copy `sockets` into the running VMI */
  | { kind: 'hotplug'; sockets: number }
  /** not live-updatable: the VM needs a restart (message says why) */
  | { kind: 'restart'; message: string };

/**
 * What a change of the VM template does to a VMI running with `running` (its current spec),
 * started from `atStart` (the template as it was at start), now wanting `current`.
 */
export function planCPULiveUpdate(current: VirtualMachineInstanceSpec | undefined, atStart: VirtualMachineInstanceSpec | undefined, running: VirtualMachineInstanceSpec): CPULiveUpdate {
  if (!sameJSON(withoutLiveFields(current), withoutLiveFields(atStart))) {
    return { kind: 'restart', message: NON_LIVE_UPDATABLE_MESSAGE };
  }
  const want = current?.domain?.cpu?.sockets ?? atStart?.domain?.cpu?.sockets;
  const have = running.domain.cpu?.sockets;
  const max = running.domain.cpu?.maxSockets;
  if (want === have || want === undefined) return { kind: 'none' };
  // KubeVirt's words (virt-controller's handleCPUChangeRequest): no maxSockets counts as no room
  if (have && want < have) return { kind: 'restart', message: 'Reduction of CPU socket count requires a restart' };
  if (!have || !max || want > max) return { kind: 'restart', message: "CPU sockets updated in template spec to a value higher than what's available" };
  return { kind: 'hotplug', sockets: want };
}
