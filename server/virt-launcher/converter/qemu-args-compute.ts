/** Machine type, accelerator, CPU model and topology, memory. */
import type { ConverterInput } from './converter-types';
import { CONVERTER_REASONS, ConverterError, invalid } from './converter-error';
import { parseBytes, parseQuantity } from './quantity';
import { clockMachineOptions, cpuFeatureFlags } from './qemu-args-clock';
import { renderJson } from './qemu-opts';
import { VIRTIO_MEM_BACKEND_ID, VIRTIO_MEM_ID, virtioMemPlan, type VirtioMemPlan } from '../../../lib/kubevirt/memory-hotplug';
import { TCG_TB_SIZE_MIB } from '../../../lib/kubevirt/tcg';

const MACHINE_TYPES = /^(q35|pc|pc-q35-[0-9.]+|pc-i440fx-[0-9.]+)$/;
const CPU_MODEL = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const MAX_VCPUS = 288;
const MiB = 2 ** 20;

export const DEFAULT_MACHINE = 'q35';

export function resolveMachine(input: ConverterInput): string {
  const type = input.vmi.spec.domain.machine?.type || DEFAULT_MACHINE;
  if (!MACHINE_TYPES.test(type)) throw invalid(`spec.domain.machine.type: unsupported machine type ${JSON.stringify(type)}`);
  return type;
}

export function renderMachineArgs(input: ConverterInput, opts: { secureBoot: boolean }): string[] {
  const acpiOff = input.vmi.spec.domain.features?.acpi?.enabled === false;
  const machine = [resolveMachine(input)];
  if (opts.secureBoot) machine.push('smm=on');
  if (acpiOff) machine.push('acpi=off');
  machine.push(...clockMachineOptions(input));
  if (input.vmi.spec.domain.memory?.hugepages) machine.push(`memory-backend=${GUEST_RAM_ID}`);
  // TCG: the translation cache bounded (lib/kubevirt/tcg.ts), so QEMU's memory stays within the Pod's overhead
  const accel = input.accel === 'kvm' ? 'kvm' : `tcg,thread=multi,tb-size=${TCG_TB_SIZE_MIB}`;
  return ['-machine', machine.join(','), '-accel', accel];
}

function positiveInt(v: unknown, field: string): number {
  if (v === undefined || v === 0) return 0;
  if (!Number.isInteger(v) || (v as number) < 0) throw invalid(`${field}: must be a positive integer`);
  return v as number;
}

/** sockets × cores × threads; with none set, sockets = CPU limit (else request) rounded up (KubeVirt's defaulting). */
export function resolveTopology(input: ConverterInput): { sockets: number; cores: number; threads: number; vcpus: number } {
  const { cpu, resources } = input.vmi.spec.domain;
  let sockets = positiveInt(cpu?.sockets, 'spec.domain.cpu.sockets');
  const cores = positiveInt(cpu?.cores, 'spec.domain.cpu.cores') || 1;
  const threads = positiveInt(cpu?.threads, 'spec.domain.cpu.threads') || 1;
  if (!sockets) {
    const fromResources = resources?.limits?.cpu ?? resources?.requests?.cpu;
    sockets = cpu?.cores || cpu?.threads || fromResources === undefined
      ? 1 : Math.max(1, Math.ceil(parseQuantity(fromResources, 'spec.domain.resources.cpu')));
  }
  const vcpus = sockets * cores * threads;
  if (vcpus > MAX_VCPUS) throw invalid(`spec.domain.cpu: ${vcpus} vCPUs exceed the maximum of ${MAX_VCPUS}`);
  return { sockets, cores, threads, vcpus };
}

export function renderCpuArgs(input: ConverterInput): string[] {
  const t = resolveTopology(input);
  const model = input.vmi.spec.domain.cpu?.model || 'host-model';
  let cpu: string;
  if (model === 'host-model' || model === 'host-passthrough') cpu = input.accel === 'kvm' ? 'host' : 'max';
  else if (CPU_MODEL.test(model)) cpu = model;
  else throw invalid(`spec.domain.cpu.model: invalid CPU model ${JSON.stringify(model)}`);
  const maxSockets = resolveMaxSockets(input, t.sockets);
  const cpuOpt = [cpu, ...cpuFeatureFlags(input)].join(',');
  if (maxSockets === t.sockets) return ['-cpu', cpuOpt, '-smp', `${t.vcpus},sockets=${t.sockets},cores=${t.cores},threads=${t.threads}`];
  // room for hot-added sockets: QEMU's topology is the maximum; socket 0 boots as the machine's
  // CPUs and every other socket is a CPU device with the id a hot-add gives it, so a migration
  // target started from the VMI after a hot-add has the same devices as its source
  const perSocket = t.cores * t.threads;
  const args = ['-cpu', cpuOpt, '-smp', `cpus=${perSocket},maxcpus=${maxSockets * perSocket},sockets=${maxSockets},cores=${t.cores},threads=${t.threads}`];
  for (let socket = 1; socket < t.sockets; socket++) {
    for (let core = 0; core < t.cores; core++) {
      for (let thread = 0; thread < t.threads; thread++) {
        args.push('-device', JSON.stringify({ driver: `${cpu}-x86_64-cpu`, id: hotplugCpuId(socket, core, thread), 'socket-id': socket, 'core-id': core, 'thread-id': thread }));
      }
    }
  }
  return args;
}

/** The id of a CPU device in socket > 0 (the launcher's hot-add uses the same). */
export const hotplugCpuId = (socket: number, core: number, thread: number) => `vcpu-s${socket}-c${core}-t${thread}`;

/** spec.domain.cpu.maxSockets (set by the VM controller under LiveUpdate), else the boot sockets. */
export function resolveMaxSockets(input: ConverterInput, sockets: number): number {
  const max = positiveInt(input.vmi.spec.domain.cpu?.maxSockets, 'spec.domain.cpu.maxSockets');
  if (!max || max <= sockets) return sockets;
  const perSocket = (input.vmi.spec.domain.cpu?.cores || 1) * (input.vmi.spec.domain.cpu?.threads || 1);
  if (max * perSocket > MAX_VCPUS) throw invalid(`spec.domain.cpu.maxSockets: ${max * perSocket} vCPUs exceed the maximum of ${MAX_VCPUS}`);
  return max;
}

/** memory.guest, else requests.memory, else limits.memory (KubeVirt's defaulting). */
export function resolveMemoryBytes(input: ConverterInput): number {
  const { memory, resources } = input.vmi.spec.domain;
  const value = memory?.guest ?? resources?.requests?.memory ?? resources?.limits?.memory;
  if (value === undefined) {
    throw invalid("no memory requested, at least one of 'spec.domain.memory.guest' or 'spec.domain.resources.requests.memory' must be set");
  }
  const bytes = parseBytes(value, 'spec.domain.memory.guest');
  if (bytes < MiB) throw invalid('spec.domain.memory.guest: must be at least 1Mi');
  return bytes;
}

/** The memory backend that holds guest RAM when it comes from hugepages. */
export const GUEST_RAM_ID = 'pc.ram';
const PAGE_SIZES: Record<string, number> = { '2Mi': 2 * MiB, '1Gi': 1024 * MiB };

/**
 * memory.hugepages: guest RAM is a file on the hugetlbfs mount of that page size (the launcher
 * mounts one when the host has none), preallocated at start so a short host fails QEMU's start
 * rather than the guest later (libvirt's <memoryBacking><hugepages/> does the same for KubeVirt).
 */
function renderHugepagesBackend(input: ConverterInput, bytes: number): string[] {
  const pageSize = input.vmi.spec.domain.memory?.hugepages?.pageSize;
  if (!pageSize) return [];
  const page = PAGE_SIZES[pageSize];
  if (!page) throw invalid(`spec.domain.memory.hugepages.pageSize: ${JSON.stringify(pageSize)} is not a page size of this host (2Mi, 1Gi)`);
  if (bytes % page !== 0) throw invalid(`spec.domain.memory.guest: ${bytes} bytes is not a multiple of the page size ${pageSize}`);
  const path = input.hugepagesMount?.(pageSize);
  if (!path) throw new ConverterError(CONVERTER_REASONS.unsupported, `spec.domain.memory.hugepages: no hugetlbfs mount with ${pageSize} pages on this node`);
  return ['-object', renderJson({ 'qom-type': 'memory-backend-file', id: GUEST_RAM_ID, 'mem-path': path, size: bytes, prealloc: true, share: false })];
}

/** The virtio-mem region of a VMI with memory.maxGuest (memory hotplug), checked. */
export function resolveVirtioMem(input: ConverterInput): VirtioMemPlan | undefined {
  const { spec, status } = input.vmi;
  if (spec.domain.memory?.maxGuest === undefined) return undefined;
  const plan = virtioMemPlan(spec, status as Parameters<typeof virtioMemPlan>[1]);
  if (!plan) {
    if (parseBytes(spec.domain.memory.maxGuest, 'spec.domain.memory.maxGuest') < resolveMemoryBytes(input)) throw invalid('spec.domain.memory.maxGuest: Guest memory is greater than the configured maxGuest memory');
    return undefined; // maxGuest = guest: nothing to plug
  }
  if (spec.domain.memory.hugepages) throw new ConverterError(CONVERTER_REASONS.unsupported, 'spec.domain.memory.maxGuest: memory hotplug with hugepages is not supported');
  for (const [field, v] of [['guest', plan.bootBytes], ['maxGuest', plan.maxBytes]] as const) {
    if (v % plan.blockBytes !== 0) throw invalid(`spec.domain.memory.${field}: must be ${plan.blockBytes / MiB}Mi aligned for memory hotplug`);
  }
  return plan;
}

export function renderMemoryArgs(input: ConverterInput): string[] {
  const bytes = resolveMemoryBytes(input);
  const hotplug = resolveVirtioMem(input);
  // with memory hotplug the machine boots with guestAtBoot; the rest is the virtio-mem device's
  if (hotplug) return ['-m', `size=${hotplug.bootBytes / MiB}M,maxmem=${hotplug.maxBytes / MiB}M`];
  return ['-m', `${Math.ceil(bytes / MiB)}M`, ...renderHugepagesBackend(input, bytes)];
}

/**
 * The virtio-mem device (KubeVirt's memory hotplug): a RAM backend of maxGuest − guestAtBoot and
 * the device requesting guest − guestAtBoot; the launcher raises `requested-size` over QMP after a
 * change. Rendered last so the other devices keep the PCI slots they have without it.
 */
export function renderVirtioMemArgs(input: ConverterInput): string[] {
  const plan = resolveVirtioMem(input);
  if (!plan) return [];
  return [
    '-object', renderJson({ 'qom-type': 'memory-backend-ram', id: VIRTIO_MEM_BACKEND_ID, size: plan.regionBytes }),
    '-device', renderJson({ driver: 'virtio-mem-pci', id: VIRTIO_MEM_ID, memdev: VIRTIO_MEM_BACKEND_ID, 'block-size': plan.blockBytes, 'requested-size': plan.requestedBytes }),
  ];
}
