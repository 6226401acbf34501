/** Disk rules (KubeVirt pkg/storage/admitters/disks.go): names, targets, buses, boot order, cache/io. */
import { invalid, notSupported, type Cause } from '../cause';
import { objectsAt, stringAt } from '../json-shape';
import type { Disk, VirtualMachineInstanceSpec } from '../../../../lib/kubevirt/vmi-spec-types';

const SUPPORTED_BUSES = ['virtio', 'scsi', 'sata', 'usb'];
const CACHE_MODES = ['none', 'writethrough', 'writeback', 'directsync'];
const IO_MODES = ['native', 'threads'];
const ERROR_POLICIES = ['stop', 'ignore', 'report', 'enospace'];
const SERIAL_RE = /^[A-Za-z0-9_.+-]+$/;
const MAX_SERIAL = 256;
const DNS1123_LABEL_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

type TargetKind = 'disk' | 'lun' | 'cdrom';

function targetOf(d: Disk): [TargetKind | '', string | undefined] {
  if (d.disk) return ['disk', d.disk.bus];
  if (d.lun) return ['lun', d.lun.bus];
  if (d.cdrom) return ['cdrom', d.cdrom.bus];
  return ['', undefined];
}

/** The IsDNS1123Label messages (disk names become container names). */
export function dns1123LabelErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1123_LABEL_RE.test(v)) {
    errs.push("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  }
  return errs;
}

function validateBus(f: string, d: Disk): Cause[] {
  const [kind, bus] = targetOf(d);
  if (!bus) return [];
  const out: Cause[] = [];
  if (bus === ('ide' as string)) out.push(invalid(`${f}.${kind}.bus`, 'IDE bus is not supported'));
  else if (bus === 'virtio' && kind === 'cdrom') out.push(invalid(`${f}.cdrom.bus`, `Bus type ${bus} is invalid for CD-ROM device`));
  else if (bus === 'sata' && d.disk?.readonly) out.push(invalid(`${f}.disk.bus`, `${bus} hard-disks do not support read-only.`));
  else if (!SUPPORTED_BUSES.includes(bus)) {
    out.push(invalid(`${f}.${kind}.bus`, `${f} is set with an unrecognized bus ${bus}, must be one of: [${SUPPORTED_BUSES.join(' ')}]`));
  }
  if (d.dedicatedIOThread && bus !== 'virtio') out.push(notSupported(f, `IOThreads are not supported for disks on a ${bus} bus`));
  return out;
}

function validateDisk(f: string, d: Disk): Cause[] {
  const out: Cause[] = [];
  const targets = [d.disk, d.lun, d.cdrom].filter((t) => t !== undefined && t !== null).length;
  if (targets > 1) out.push(invalid(f, `${f} can only have a single target type defined`));
  if (d.disk?.pciAddress && d.disk.bus !== 'virtio') {
    out.push(invalid(`${f}.disk.pciAddress`, `disk ${f}.name - setting a PCI address is only possible with bus type virtio.`));
  }
  if (typeof d.bootOrder === 'number' && d.bootOrder < 1) out.push(invalid(`${f}.bootOrder`, `${f} must have a boot order > 0, if supplied`));
  return [...out, ...validateBus(f, d), ...validateDiskOptions(f, d)];
}

function validateDiskOptions(f: string, d: Disk): Cause[] {
  const out: Cause[] = [];
  if (d.serial && !SERIAL_RE.test(d.serial)) {
    out.push(invalid(`${f}.serial`, `${f} must be made up of the following characters [A-Za-z0-9_.+-], if specified`));
  }
  if (d.serial && [...d.serial].length > MAX_SERIAL) {
    out.push(invalid(`${f}.serial`, `${f} must be less than or equal to ${MAX_SERIAL} in length, if specified`));
  }
  if (d.cache && !CACHE_MODES.includes(d.cache)) out.push(invalid(`${f}.cache`, `${f}.cache has invalid value ${d.cache}`));
  if (d.io && !IO_MODES.includes(d.io)) out.push(notSupported(`${f}.io`, `Disk IO mode for ${f} is not supported. Supported modes are: native, threads.`));
  if (d.errorPolicy && !ERROR_POLICIES.includes(d.errorPolicy)) {
    out.push(invalid(`${f}.errorPolicy`, `${f}.errorPolicy has invalid value "${d.errorPolicy}"`));
  }
  for (const e of dns1123LabelErrors(stringAt(d.name) ?? '')) out.push(invalid(`${f}.name`, e));
  return out;
}

/** All disk rules, plus "every disk has a volume" and unique boot orders across disks and interfaces. */
export function validateDisks(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const base = `${field}.domain.devices.disks`;
  const disks = objectsAt(spec.domain?.devices?.disks) as unknown as [Disk, number][];
  const volumeNames = new Set(objectsAt(spec.volumes).map(([v]) => stringAt(v.name)));
  const out: Cause[] = [];
  const seen = new Map<string, number>();
  for (const [d, i] of disks) {
    const f = `${base}[${i}]`;
    const name = stringAt(d.name) ?? '';
    const first = seen.get(name);
    if (first !== undefined) out.push(invalid(`${f}.name`, `${f} and ${base}[${first}] must not have the same Name.`));
    else seen.set(name, i);
    if (!volumeNames.has(name)) out.push(invalid(`${f}.name`, `${f}.Name '${name}' not found.`));
    out.push(...validateDisk(f, d));
  }
  return out;
}

/** Boot order values must be unique across disks and interfaces. */
export function validateBootOrder(spec: VirtualMachineInstanceSpec, field: string): Cause[] {
  const used = new Set<number>();
  const out: Cause[] = [];
  const devices: [string, unknown][] = [['disks', spec.domain?.devices?.disks], ['interfaces', spec.domain?.devices?.interfaces]];
  for (const [kind, list] of devices) {
    for (const [d, i] of objectsAt(list)) {
      const order = d.bootOrder;
      if (typeof order !== 'number' || order < 1) continue;
      const f = `${field}.domain.devices.${kind}[${i}].bootOrder`;
      if (used.has(order)) out.push(invalid(f, `Boot order for ${f} already set for a different device.`));
      used.add(order);
    }
  }
  return out;
}
