/**
 * The VM page's Size panel, pure: what the guest has now (vCPUs, memory), how far a live change
 * may go (the VMI's maxSockets / maxGuest), the merge patch a change becomes, and what came of the
 * last change — applied live, in progress, needs a restart, or refused by the guest's side.
 */
import { parseQuantity } from '../kubevirt/quantity';
import type { Condition } from '../kubevirt/meta';
import type { VirtualMachine } from '../kubevirt/vm-types';
import type { VirtualMachineInstance } from '../kubevirt/vmi-types';
import { formatBytes } from './format';

export type LiveSizeState = 'stopped' | 'steady' | 'applied' | 'in-progress' | 'restart' | 'failed';

export interface LiveSizeView {
  /** sockets the VM asks for (its template, 1 when unset) and vCPUs per socket (cores × threads) */
  wantedSockets: number;
  perSocket: number;
  /** the guest's vCPUs now: currentCPUTopology, else the VMI's spec, else the VM's */
  vcpus: number;
  /** `2 vCPUs (up to 8 live)` */
  cpuText: string;
  /** the VM's memory.guest as written (the editable value) */
  wantedMemory?: string;
  /** the guest's memory now: status.memory.guestCurrent, else the VMI's spec, else the VM's */
  memoryBytes?: number;
  /** `1 GiB (up to 4 GiB live)` */
  memoryText: string;
  maxSockets?: number;
  maxGuestBytes?: number;
  /** sockets and memory come from an instance type: not editable here */
  instancetype?: string;
  state: LiveSizeState;
  /** the state in words (`Applied live`, `Needs a restart`…) and its detail (the condition's message) */
  stateText: string;
  detail?: string;
  /** for a restart: what in the CPU change could not go live, when the page can tell */
  why?: string;
}

/** What the user last applied from the panel (its result is `applied` once the VMI reports it). */
export interface AppliedChange { sockets?: number; memory?: string }

/** `2 GiB`, not `2.0 GiB` */
const size = (n: number | undefined) => formatBytes(n).replace(/\.0 /, ' ');
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
const cond = (cs: Condition[] | undefined, type: string) => cs?.find((c) => c.type === type);
const positive = (n: unknown): number | undefined => (typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined);

function cpuOf(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined) {
  const spec = vmi?.spec.domain.cpu ?? vm.spec.template.spec.domain.cpu;
  const cur = vmi?.status?.currentCPUTopology;
  const cores = positive(cur?.cores) ?? positive(spec?.cores) ?? 1;
  const threads = positive(cur?.threads) ?? positive(spec?.threads) ?? 1;
  const sockets = positive(cur?.sockets) ?? positive(spec?.sockets) ?? 1;
  return { cores, threads, sockets, maxSockets: positive(vmi?.spec.domain.cpu?.maxSockets) };
}

function memoryOf(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined) {
  const q = vmi?.status?.memory?.guestCurrent ?? vmi?.spec.domain.memory?.guest ?? vm.spec.template.spec.domain.memory?.guest;
  return { bytes: parseQuantity(q), maxGuestBytes: vmi ? parseQuantity(vmi.spec.domain.memory?.maxGuest) : undefined };
}

/** The CPU side of a RestartRequired the page can explain (beside the condition's message, KubeVirt's words for the case). */
function whyRestart(wanted: number, have: number, max: number | undefined): string | undefined {
  if (wanted === have) return undefined;
  if (wanted < have) return 'removing vCPUs needs a restart';
  if (!max) return 'this guest was started without room for more vCPUs';
  if (wanted > max) return `${wanted} sockets asked, this guest goes up to ${max} live`;
  return undefined;
}

/** A migration of this VMI that started and has not ended (a workload update moving it to a bigger Pod). */
const migrating = (vmi: VirtualMachineInstance) => {
  const m = vmi.status?.migrationState;
  return !!m && !!m.startTimestamp && !m.endTimestamp && !m.completed && !m.failed;
};

export function liveSizeView(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, applied?: AppliedChange): LiveSizeView {
  const running = vmi?.status?.phase === 'Running';
  const live = running ? vmi : undefined;
  const cpu = cpuOf(vm, live);
  const perSocket = cpu.cores * cpu.threads;
  const vcpus = cpu.sockets * perSocket;
  const mem = memoryOf(vm, live);
  const wantedSockets = positive(vm.spec.template.spec.domain.cpu?.sockets) ?? 1;
  const wantedMemory = vm.spec.template.spec.domain.memory?.guest === undefined ? undefined : String(vm.spec.template.spec.domain.memory.guest);
  const base = {
    wantedSockets, perSocket, vcpus, wantedMemory, memoryBytes: mem.bytes, maxSockets: cpu.maxSockets, maxGuestBytes: mem.maxGuestBytes,
    instancetype: vm.spec.instancetype?.name,
    cpuText: `${plural(vcpus, 'vCPU')}${!live ? '' : cpu.maxSockets && cpu.maxSockets > cpu.sockets ? ` (up to ${cpu.maxSockets * perSocket} live)` : ' (more needs a restart)'}`,
    memoryText: `${size(mem.bytes)}${!live ? '' : mem.maxGuestBytes && mem.bytes !== undefined && mem.maxGuestBytes > mem.bytes ? ` (up to ${size(mem.maxGuestBytes)} live)` : ' (more needs a restart)'}`,
  };
  if (!live) return { ...base, state: 'stopped', stateText: 'Not running: a change applies when it next starts' };

  const restart = cond(vm.status?.conditions, 'RestartRequired');
  if (restart?.status === 'True') return { ...base, state: 'restart', stateText: 'Needs a restart', detail: restart.message, why: whyRestart(wantedSockets, cpu.sockets, cpu.maxSockets) };
  const cpuChange = cond(live.status?.conditions, 'HotVCPUChange');
  const memChange = cond(live.status?.conditions, 'HotMemoryChange');
  if (cpuChange?.status === 'True' && cpuChange.reason === 'HotVCPUChangeFailed') return { ...base, state: 'failed', stateText: 'Not applied', detail: cpuChange.message };
  if (memChange?.status === 'False') return { ...base, state: 'failed', stateText: 'Not applied', detail: memChange.message };
  if (memChange?.status === 'True' || migrating(live)) {
    return { ...base, state: 'in-progress', stateText: 'In progress', detail: migrating(live) ? 'the VM moves by live migration to a launcher sized for the change' : memChange?.message };
  }
  const wantedBytes = parseQuantity(wantedMemory);
  const cpuPending = wantedSockets !== cpu.sockets;
  const memPending = wantedBytes !== undefined && mem.bytes !== undefined && wantedBytes !== mem.bytes;
  if (cpuPending || memPending) {
    const parts = [cpuPending ? `${plural(wantedSockets * perSocket, 'vCPU')} asked` : '', memPending ? `${size(wantedBytes)} asked` : ''].filter(Boolean);
    return { ...base, state: 'in-progress', stateText: 'In progress', detail: parts.join(', ') };
  }
  const bootBytes = parseQuantity(live.status?.memory?.guestAtBoot);
  const changedSinceBoot = bootBytes !== undefined && mem.bytes !== undefined && bootBytes !== mem.bytes;
  if (applied || changedSinceBoot) return { ...base, state: 'applied', stateText: 'Applied live' };
  return { ...base, state: 'steady', stateText: 'As the VM asks' };
}

/**
 * The merge patch for a change from the panel (only what differs from the VM), or a message when
 * the input cannot be sent. Undefined patch = nothing to change.
 */
export function liveSizePatch(vm: VirtualMachine, input: { sockets: string; memory: string }): { patch?: object; error?: string } {
  const domain: Record<string, unknown> = {};
  const s = input.sockets.trim();
  if (!/^\d+$/.test(s) || Number(s) < 1) return { error: `Sockets must be a whole number of at least 1, got "${input.sockets}"` };
  if (Number(s) !== (positive(vm.spec.template.spec.domain.cpu?.sockets) ?? 1)) domain.cpu = { sockets: Number(s) };
  const m = input.memory.trim();
  const current = vm.spec.template.spec.domain.memory?.guest;
  if (m !== '' && m !== String(current ?? '')) {
    if (parseQuantity(m) === undefined) return { error: `Memory must be a quantity such as 2Gi, got "${input.memory}"` };
    domain.memory = { guest: m };
  }
  if (Object.keys(domain).length === 0) return {};
  return { patch: { spec: { template: { spec: { domain } } } } };
}
