/** Domain rules: memory and CPU resources, CPU topology, firmware, machine type. */
import { invalid, required, type Cause } from '../cause';
import { isObject, objectAt, stringAt, textOf } from '../json-shape';
import { parseQuantity } from '../../../../lib/kubevirt/quantity';
import { KUBEVIRT_MAX_VCPUS } from '../../../../lib/kubevirt/cpu-hotplug';
import type { VirtualMachineInstanceSpec } from '../../../../lib/kubevirt/vmi-spec-types';

const MIN_MEMORY_BYTES = 1_000_000;
/**
 * Highest vCPU count admission accepts: KubeVirt's bound (KUBEVIRT_MAX_VCPUS, 512). KubeVirt itself
 * leaves a bigger topology for libvirt to refuse at start; we refuse it here with the reason. A
 * count between 289 and 512 passes admission and fails at start (QEMU 7.2's q35 limit, 288).
 */
export const MAX_VCPUS = KUBEVIRT_MAX_VCPUS;
const SERIAL_RE = /^[A-Za-z0-9_.+-]+$/;
const MAX_SERIAL = 256;
const ALLOWED_MACHINES = ['q35*', 'pc-q35*'];

const show = (q: unknown) => textOf(q);
const globMatch = (glob: string, v: string) => (glob.endsWith('*') ? v.startsWith(glob.slice(0, -1)) : v === glob);

function validateResource(spec: VirtualMachineInstanceSpec, field: string, res: 'memory' | 'cpu'): Cause[] {
  const r = objectAt(spec.domain?.resources);
  const req = objectAt(r.requests)[res];
  const lim = objectAt(r.limits)[res];
  const reqF = `${field}.domain.resources.requests.${res}`;
  const limF = `${field}.domain.resources.limits.${res}`;
  const reqV = parseQuantity(req);
  const limV = parseQuantity(lim);
  const out: Cause[] = [];
  if (reqV !== undefined && reqV < 0) out.push(invalid(reqF, `${reqF} '${show(req)}': must be greater than or equal to 0.`));
  else if (res === 'memory' && reqV !== undefined && reqV > 0 && reqV < MIN_MEMORY_BYTES) {
    out.push(invalid(reqF, `${reqF} '${show(req)}': must be greater than or equal to 1M.`));
  }
  if (limV !== undefined && limV < 0) out.push(invalid(limF, `${limF} '${show(lim)}': must be greater than or equal to 0.`));
  if (reqV !== undefined && limV !== undefined && limV > 0 && reqV > limV) {
    out.push(invalid(reqF, `${reqF} '${show(req)}' is greater than ${limF} '${show(lim)}'`));
  }
  return out;
}

function validateGuestMemory(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const mem = objectAt(spec.domain?.memory);
  const guestF = `${field}.domain.memory.guest`;
  const guest = parseQuantity(mem.guest);
  const lim = objectAt(objectAt(spec.domain?.resources).limits).memory;
  const limV = parseQuantity(lim);
  const out: Cause[] = [];
  if (guest !== undefined && guest < 0) out.push(invalid(guestF, `${guestF} '${show(mem.guest)}': must be greater than or equal to 0.`));
  else if (guest !== undefined && guest < MIN_MEMORY_BYTES) out.push(invalid(guestF, `${guestF} '${show(mem.guest)}': must be greater than or equal to 1M.`));
  if (guest !== undefined && limV !== undefined && limV > 0 && guest > limV) {
    const limF = `${field}.domain.resources.limits.memory`;
    out.push(invalid(guestF, `${guestF} '${show(mem.guest)}' must be equal to or less than the memory limit ${limF} '${show(lim)}'`));
  }
  return out.concat(validateHugepages(spec, field, guest));
}

/** The hugepage sizes an x86-64 host has (the node's hugepages-2Mi / hugepages-1Gi resources). */
const HUGEPAGE_SIZES = [2 * 2 ** 20, 2 ** 30];

function validateHugepages(spec: VirtualMachineInstanceSpec, field: string, guest: number | undefined): Cause[] {
  const hp = objectAt(objectAt(spec.domain?.memory).hugepages);
  const pageF = `${field}.domain.memory.hugepages.pageSize`;
  if (hp.pageSize === undefined || hp.pageSize === null) return [];
  const page = parseQuantity(hp.pageSize);
  if (page === undefined || page <= 0) return [invalid(pageF, `${pageF} '${show(hp.pageSize)}': must be a valid quantity.`)];
  if (!HUGEPAGE_SIZES.includes(page)) return [invalid(pageF, `${pageF} '${show(hp.pageSize)}': the host's page sizes are 2Mi and 1Gi`)];
  const req = objectAt(objectAt(spec.domain?.resources).requests).memory;
  const [memF, memQ, mem] = guest !== undefined
    ? [`${field}.domain.memory.guest`, objectAt(spec.domain?.memory).guest, guest]
    : [`${field}.domain.resources.requests.memory`, req, parseQuantity(req)];
  if (mem === undefined) return [];
  if (mem < page) return [invalid(memF, `${memF} '${show(memQ)}' must be equal to or larger than page size ${pageF} '${show(hp.pageSize)}'`)];
  if (mem % page !== 0) return [invalid(memF, `${memF} '${show(memQ)}' is not a multiple of the page size ${pageF} '${show(hp.pageSize)}'`)];
  return [];
}

function validateCPU(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const cpu = objectAt(spec.domain?.cpu);
  const f = `${field}.domain.cpu`;
  const out: Cause[] = [];
  for (const k of ['sockets', 'cores', 'threads', 'maxSockets'] as const) {
    const v = cpu[k];
    if (typeof v === 'number' && v < 0) out.push(invalid(`${f}.${k}`, `${f}.${k} '${v}': must be greater than or equal to 0.`));
  }
  const n = (v: unknown) => (typeof v === 'number' && v > 0 ? v : 1);
  const vcpus = n(cpu.sockets) * n(cpu.cores) * n(cpu.threads);
  if (vcpus > MAX_VCPUS) out.push(invalid(f, `${f}: sockets × cores × threads (${vcpus}) must not exceed ${MAX_VCPUS} vCPUs`));
  if (typeof cpu.maxSockets === 'number' && cpu.maxSockets > 0 && typeof cpu.sockets === 'number' && cpu.sockets > cpu.maxSockets) {
    out.push(invalid(`${f}.sockets`, 'Number of sockets in CPU topology is greater than the maximum sockets allowed'));
  }
  if (cpu.isolateEmulatorThread === true && cpu.dedicatedCpuPlacement !== true) {
    out.push(invalid(`${f}.isolateEmulatorThread`, 'IsolateEmulatorThread should be only set in combination with DedicatedCPUPlacement'));
  }
  return out;
}

function validateFirmware(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const fw = objectAt(spec.domain?.firmware);
  const f = `${field}.domain.firmware`;
  const out: Cause[] = [];
  const bl = objectAt(fw.bootloader);
  if (isObject(bl.efi) && isObject(bl.bios)) {
    out.push(invalid(`${f}.bootloader`, `${f}.bootloader has both EFI and BIOS configured, but they are mutually exclusive.`));
  }
  if (isObject(bl.efi) && bl.efi.secureBoot !== false) {
    const smm = objectAt(spec.domain?.features).smm;
    if (!isObject(smm) || smm.enabled === false) {
      out.push(invalid(`${f}.bootloader.efi.secureBoot`, `${f}.bootloader.efi.secureBoot has EFI SecureBoot enabled. SecureBoot requires SMM, which is currently disabled.`));
    }
  }
  const serial = stringAt(fw.serial);
  if (serial && !SERIAL_RE.test(serial)) out.push(invalid(`${f}.serial`, `${f}.serial must be made up of the following characters [A-Za-z0-9_.+-], if specified`));
  if (serial && serial.length > MAX_SERIAL) out.push(invalid(`${f}.serial`, `${f}.serial must be less than or equal to ${MAX_SERIAL} in length, if specified`));
  const kb = objectAt(fw.kernelBoot);
  if (isObject(kb.container) && !stringAt(kb.container.image)) {
    out.push(required(`${f}.kernelBoot.container.image`, `${f}.kernelBoot.container.image must be defined with an image`));
  }
  return out;
}

function validateMachine(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const type = stringAt(objectAt(spec.domain?.machine).type);
  if (!type || ALLOWED_MACHINES.some((g) => globMatch(g, type))) return [];
  const f = `${field}.domain.machine.type`;
  return [invalid(f, `${f} is not supported: ${type} (allowed values: [${ALLOWED_MACHINES.join(' ')}])`)];
}

export function validateDomain(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  return [
    ...validateResource(spec, field, 'memory'),
    ...validateGuestMemory(spec, field),
    ...validateResource(spec, field, 'cpu'),
    ...validateCPU(spec, field),
    ...validateFirmware(spec, field),
    ...validateMachine(spec, field),
  ];
}

/** VMI only (after defaults): some memory must be requested. KubeVirt leaves the field empty. */
export function validateMemoryRequired(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const req = parseQuantity(objectAt(objectAt(spec.domain?.resources).requests).memory) ?? 0;
  const mem = objectAt(spec.domain?.memory);
  const has = (v: unknown) => v !== undefined && v !== null;
  if (req !== 0 || has(mem.guest) || has(mem.hugepages)) return [];
  return [required('', `no memory requested, at least one of '${field}.domain.memory.guest', '${field}.domain.memory.hugepages.size' or '${field}.domain.resources.requests.memory' must be set`)];
}
