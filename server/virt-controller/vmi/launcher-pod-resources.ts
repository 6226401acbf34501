/**
 * Launcher Pod resource requests, sized like KubeVirt's renderresources.go (KVM backend), with the fixed
 * terms measured on what our launcher Pod runs (one Node.js launcher + QEMU; no libvirt daemons, no
 * virt-launcher-monitor: our per-VMI bookkeeping lives in virt-handler, outside the Pod):
 *
 *   memory request = (resources.requests.memory ?? resources.limits.memory ?? memory.guest × 100 / memoryOvercommit)
 *                    + overhead (memoryOvercommit: the KubeVirt CR's developerConfiguration, percent, default
 *                    100, as KubeVirt's WithMemoryRequests; no overhead if overcommitGuestOverhead)
 *   memory limit   = resources.limits.memory + overhead (overcommitGuestOverhead too: only the request is overcommitted)
 *   overhead       = ( guest/512 (page tables)                                KubeVirt: same
 *                    + 20Mi  launcher process (Node.js)                       KubeVirt: virt-launcher 100Mi + monitor 25Mi
 *                    + 50Mi  QEMU fixed cost                                  KubeVirt: QEMU 50Mi (+ virtlogd 25Mi, virtqemud 40Mi: we have none)
 *                    + 32Mi  TCG translation cache (tb-size, lib/kubevirt/tcg.ts) KubeVirt: none (KVM)
 *                    + 8Mi per vCPU                                           KubeVirt: same
 *                    + 8Mi IOThread                                           KubeVirt: same
 *                    + 32Mi VGA when a graphics device is attached            KubeVirt: same
 *                    + 100Mi dedicated CPUs or Guaranteed QoS asked for        KubeVirt: same (requests = limits for
 *                            (cpu and memory requests = limits)                   both cpu and memory, non-zero) )
 *                    × additionalGuestMemoryOverheadRatio (KubeVirt CR, ≥ 1; in whole kB)  KubeVirt: same
 *   cpu request    = resources.requests.cpu ?? vCPUs / cpuAllocationRatio (10 → 100m per vCPU)
 *   dedicatedCpuPlacement → cpu requests = limits = vCPUs (+1 with isolateEmulatorThread), memory limit =
 *                           the request before overhead, plus overhead (Guaranteed QoS; with
 *                           overcommitGuestOverhead the limit keeps the overhead, the request not, as KubeVirt).
 *   memory.hugepages      → hugepages-<size> requests = limits = guest memory; the memory request keeps
 *                           only the overhead (plus any requests.memory beyond the guest), as KubeVirt.
 *   ephemeral-storage request = the emptyDisks' total capacity (their files live in the pod dir), so
 *   the scheduler only picks a node whose disk can hold them ("Insufficient ephemeral-storage").
 *
 * Measured 2026-11-26 (bench/density-bench.ts, bench/tcg-tb-size-measure.ts; docs/performance.md "Density"):
 * a booted 96 MiB demo guest's launcher Pod cgroup (memory.usage_in_bytes / max_usage_in_bytes, all of it
 * anonymous memory) holds 178–180 MiB, peak 183–209 MiB — this overhead gives it 246 MiB (before: 319;
 * KubeVirt's own, with its libvirt daemons: 384).
 * The launcher: USS 9.0–10.3 MiB (RSS ~51 MiB, the rest Node's shared text, charged once per host) →
 * 20Mi, twice its private memory. QEMU besides guest RAM, translation cache and VGA RAM (smaps): heap
 * ~10 MiB, a vCPU thread's malloc arena ~16 MiB, the kernel it holds for direct boot ~14 MiB, the rest
 * ~5 MiB → KubeVirt's 50Mi stands. The translation cache: 66 MiB after a demo boot without a bound (up to
 * 1 GiB), 32 MiB with tb-size=32, the boot no slower (login median of 6 boots 6.8 → 7.1 s; ±4 s noise on this host).
 */
import { MIB, formatBinaryQuantity as formatBytes, formatCPUQuantity as formatCPU, parseQuantity } from '../../../lib/kubevirt/quantity';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import type { AutoLimits } from './auto-resource-limits';
import { TCG_TB_SIZE_MIB } from '../../../lib/kubevirt/tcg';

export const PAGE_TABLE_DIVISOR = 512;
/** our Node.js launcher's private memory (USS ~10 MiB measured), twice over */
export const LAUNCHER_OVERHEAD = 20 * MIB;
/** QEMU's own memory besides guest RAM, the translation cache and VGA RAM (~45 MiB measured): KubeVirt's figure */
export const QEMU_OVERHEAD = 50 * MIB;
/** the TCG translation cache QEMU may fill (it is bounded to this by the launcher's -accel tcg,tb-size) */
export const TCG_CACHE_OVERHEAD = TCG_TB_SIZE_MIB * MIB;
export const PER_VCPU_OVERHEAD = 8 * MIB;
export const IOTHREAD_OVERHEAD = 8 * MIB;
export const VGA_OVERHEAD = 32 * MIB;
/** KubeVirt's extra for a VMI with dedicated CPUs or one asking for Guaranteed QoS */
export const GUARANTEED_OVERHEAD = 100 * MIB;
export const DEFAULT_CPU_ALLOCATION_RATIO = 10;
export const DEFAULT_GUEST_MEMORY = 128 * MIB;

export type ResourceList = Record<string, string>;
export interface LauncherResources {
  requests: ResourceList;
  limits?: ResourceList;
  overheadBytes: number;
}

/** Number of vCPUs the guest sees: sockets × cores × threads (each defaulting to 1). */
export function countVCPUs(vmi: VirtualMachineInstance): number {
  const cpu = vmi.spec?.domain?.cpu ?? {};
  return (cpu.sockets ?? 1) * (cpu.cores ?? 1) * (cpu.threads ?? 1);
}

/** Guest RAM in bytes: memory.guest, else requests.memory, else limits.memory, else 128Mi. */
export function guestMemoryBytes(vmi: VirtualMachineInstance): number {
  const d = vmi.spec?.domain;
  return parseQuantity(d?.memory?.guest) ?? parseQuantity(d?.resources?.requests?.memory) ?? parseQuantity(d?.resources?.limits?.memory) ?? DEFAULT_GUEST_MEMORY;
}

/** KubeVirt's WantsToHaveQOSGuaranteed: non-zero cpu and memory requests, each equal to its limit. */
export function wantsGuaranteedQOS(vmi: VirtualMachineInstance): boolean {
  const res = vmi.spec?.domain?.resources ?? {};
  const same = (name: 'cpu' | 'memory'): boolean => {
    const req = parseQuantity(res.requests?.[name]);
    const lim = parseQuantity(res.limits?.[name]);
    return req !== undefined && req !== 0 && req === lim;
  };
  return same('memory') && same('cpu');
}

/**
 * Memory the launcher Pod needs on top of guest RAM; `ratio` (the KubeVirt CR's
 * additionalGuestMemoryOverheadRatio, ≥ 1) multiplies it last, in whole kB as KubeVirt does.
 */
export function memoryOverheadBytes(vmi: VirtualMachineInstance, ratio = 1): number {
  const graphics = vmi.spec?.domain?.devices?.autoattachGraphicsDevice !== false;
  const fixed = LAUNCHER_OVERHEAD + QEMU_OVERHEAD + TCG_CACHE_OVERHEAD + IOTHREAD_OVERHEAD;
  const pageTables = Math.ceil(guestMemoryBytes(vmi) / PAGE_TABLE_DIVISOR);
  const guaranteed = vmi.spec?.domain?.cpu?.dedicatedCpuPlacement || wantsGuaranteedQOS(vmi);
  const overhead = fixed + pageTables + countVCPUs(vmi) * PER_VCPU_OVERHEAD + (graphics ? VGA_OVERHEAD : 0) + (guaranteed ? GUARANTEED_OVERHEAD : 0);
  return ratio > 1 ? overhead + Math.floor((Math.ceil(overhead / 1000) * (ratio - 1))) * 1000 : overhead;
}

/** `hugepages-2Mi` / `hugepages-1Gi`: the Kubernetes resource a VMI's hugepages come from (undefined without hugepages). */
export function hugepagesResource(vmi: VirtualMachineInstance): string | undefined {
  const size = vmi.spec?.domain?.memory?.hugepages?.pageSize;
  return size ? `hugepages-${size}` : undefined;
}

/**
 * The guest part of the memory request when the VMI asks for none: memory.guest (else the hugepage
 * size, as KubeVirt), scaled by memoryOvercommit percent — 150 requests two thirds of it (bytes floored).
 */
function requestedGuestBytes(vmi: VirtualMachineInstance, memoryOvercommit: number): number {
  const guest = guestMemoryBytes(vmi);
  return memoryOvercommit === 100 ? guest : Math.floor((guest * 100) / memoryOvercommit);
}

function renderMemory(vmi: VirtualMachineInstance, overheadBytes: number, memoryOvercommit: number): { request: string; limit?: string } {
  const res = vmi.spec?.domain?.resources ?? {};
  const asked = parseQuantity(res.requests?.memory) ?? parseQuantity(res.limits?.memory) ?? requestedGuestBytes(vmi, memoryOvercommit);
  const hugepages = hugepagesResource(vmi) !== undefined;
  // hugepages hold the guest RAM: ordinary memory is the overhead and whatever was asked beyond the guest
  const base = hugepages ? Math.max(0, asked - guestMemoryBytes(vmi)) : asked;
  // overcommitGuestOverhead overcommits the request only: the limit still carries the overhead
  const request = formatBytes(base + (res.overcommitGuestOverhead ? 0 : overheadBytes));
  // dedicated CPUs: the limit is the request before overhead (KubeVirt's CPU pinning), then the overhead;
  // hugepages: the limit too keeps only what exceeds memory.guest (nothing without memory.guest), as KubeVirt
  const askedLimit = parseQuantity(res.limits?.memory);
  const guest = parseQuantity(vmi.spec?.domain?.memory?.guest);
  const limit = vmi.spec?.domain?.cpu?.dedicatedCpuPlacement ? base
    : hugepages && askedLimit !== undefined ? (guest !== undefined && askedLimit > guest ? askedLimit - guest : 0)
      : askedLimit;
  return limit === undefined ? { request } : { request, limit: formatBytes(limit + overheadBytes) };
}

function renderCPU(vmi: VirtualMachineInstance, ratio: number): { request: string; limit?: string } {
  const res = vmi.spec?.domain?.resources ?? {};
  const cpu = vmi.spec?.domain?.cpu;
  if (cpu?.dedicatedCpuPlacement) {
    // isolateEmulatorThread: one more dedicated CPU, for QEMU's emulator thread (KubeVirt does the same)
    const n = String(countVCPUs(vmi) + (cpu.isolateEmulatorThread ? 1 : 0));
    return { request: n, limit: n };
  }
  const request = res.requests?.cpu !== undefined ? String(res.requests.cpu) : formatCPU(countVCPUs(vmi) / ratio);
  return res.limits?.cpu !== undefined ? { request, limit: String(res.limits.cpu) } : { request };
}

/** Total emptyDisk capacity in bytes (0 when there is none). */
export function emptyDiskBytes(vmi: VirtualMachineInstance): number {
  return (vmi.spec?.volumes ?? []).reduce((sum, v) => sum + (v.emptyDisk ? (parseQuantity(v.emptyDisk.capacity) ?? 0) : 0), 0);
}

/** The cluster's sizing knobs (KubeVirt CR), each optional. */
export interface LauncherSizing {
  /** developerConfiguration.cpuAllocationRatio (default 10: 100m per vCPU) */
  cpuAllocationRatio?: number;
  /** the limits a namespace's ResourceQuota asks for (auto-resource-limits.ts) */
  auto?: AutoLimits;
  /** additionalGuestMemoryOverheadRatio (≥ 1; default 1) */
  overheadRatio?: number;
  /** developerConfiguration.memoryOvercommit, percent, a positive integer (default 100) */
  memoryOvercommit?: number;
}

/** requests/limits for the `compute` container */
export function renderLauncherResources(vmi: VirtualMachineInstance, sizing: LauncherSizing = {}): LauncherResources {
  const auto = sizing.auto ?? {};
  const overcommit = sizing.memoryOvercommit ?? 100;
  const overheadBytes = memoryOverheadBytes(vmi, sizing.overheadRatio ?? 1);
  const memory = renderMemory(vmi, overheadBytes, overcommit);
  const cpu = renderCPU(vmi, sizing.cpuAllocationRatio ?? DEFAULT_CPU_ALLOCATION_RATIO);
  const requests: ResourceList = { memory: memory.request, cpu: cpu.request };
  const hugepages = hugepagesResource(vmi);
  const disks = emptyDiskBytes(vmi);
  if (disks > 0) requests['ephemeral-storage'] = formatBytes(disks);
  const limits: ResourceList = {};
  if (memory.limit) limits.memory = memory.limit;
  if (cpu.limit) limits.cpu = cpu.limit;
  if (auto.memoryRatio !== undefined && !limits.memory) limits.memory = formatBytes(Math.floor((parseQuantity(requests.memory) ?? 0) * auto.memoryRatio));
  if (auto.cpu && !limits.cpu) limits.cpu = String(countVCPUs(vmi));
  // Kubernetes takes hugepages only with requests == limits
  if (hugepages) requests[hugepages] = limits[hugepages] = formatBytes(guestMemoryBytes(vmi));
  return Object.keys(limits).length ? { requests, limits, overheadBytes } : { requests, overheadBytes };
}
