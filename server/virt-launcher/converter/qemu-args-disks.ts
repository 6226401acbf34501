/** devices.disks[] → -blockdev (JSON) + -device on the requested bus (virtio, sata, scsi, usb). */
import type { ArgsPart, ConverterInput, FileToCreate } from './converter-types';
import type { Disk, DiskBus } from '../vmi-types';
import { invalid } from './converter-error';
import { checkName, renderJson, userAlias } from './qemu-opts';
import { resolveVolumeSource, type VolumeSource } from './qemu-args-volumes';

const BUSES: DiskBus[] = ['virtio', 'sata', 'scsi', 'usb'];
const DISK_SERIAL = /^[A-Za-z0-9_.+-]{1,20}$/;
const AHCI_PORTS = 6;
/** parent bus ids (virtio-blk is a PCI device, placed by QEMU). */
const BUS_IDS: Record<DiskBus, string | undefined> = { virtio: undefined, sata: undefined, scsi: 'scsi0.0', usb: 'usb.0' };

interface DiskPlan { disk: Disk; kind: 'disk' | 'cdrom' | 'lun'; bus: DiskBus; readOnly: boolean; source: VolumeSource }

function planDisk(input: ConverterInput, disk: Disk, i: number): DiskPlan | undefined {
  const name = checkName(disk.name, `spec.domain.devices.disks[${i}].name`);
  const vol = (input.vmi.spec.volumes ?? []).find((v) => v.name === name);
  if (!vol) throw invalid(`spec.domain.devices.disks[${i}].Name '${name}' not found.`);
  checkName(vol.name, `spec.volumes[${name}].name`);
  const kind = disk.cdrom ? 'cdrom' : disk.lun ? 'lun' : 'disk';
  const target = disk.cdrom ?? disk.lun ?? disk.disk ?? {};
  const bus = target.bus ?? (kind === 'cdrom' ? 'sata' : kind === 'lun' ? 'scsi' : 'virtio');
  if (!BUSES.includes(bus)) throw invalid(`spec.domain.devices.disks[${i}]: unsupported bus ${JSON.stringify(bus)}`);
  if (kind === 'cdrom' && bus === 'virtio') throw invalid(`spec.domain.devices.disks[${i}]: Bus type virtio is invalid for CD-ROM device`);
  if (disk.serial !== undefined && !DISK_SERIAL.test(disk.serial)) {
    throw invalid(`spec.domain.devices.disks[${i}].serial: must match ${DISK_SERIAL.source}`);
  }
  if (disk.bootOrder !== undefined && (!Number.isInteger(disk.bootOrder) || disk.bootOrder < 1)) {
    throw invalid(`spec.domain.devices.disks[${i}].bootOrder: must be a positive integer`);
  }
  const source = resolveVolumeSource(input, vol);
  if (!source) return undefined;
  const readOnly = source.readOnly || (kind === 'cdrom' ? target.readonly !== false : target.readonly === true);
  return { disk, kind, bus, readOnly, source };
}

function renderBlockdev(p: DiskPlan): string {
  const cache = p.disk.cache === 'none' ? { direct: true } : undefined;
  return renderJson({
    'node-name': `drive-${p.disk.name}`, driver: p.source.format, 'read-only': p.readOnly,
    discard: p.readOnly ? undefined : 'unmap', cache,
    file: { driver: 'file', filename: p.source.path, 'read-only': p.readOnly, cache },
  });
}

function deviceDriver(p: DiskPlan): string {
  const cd = p.kind === 'cdrom' || (p.readOnly && p.bus === 'sata');
  switch (p.bus) {
    case 'virtio': return 'virtio-blk-pci';
    case 'sata': return cd ? 'ide-cd' : 'ide-hd';
    case 'scsi': return p.kind === 'cdrom' ? 'scsi-cd' : 'scsi-hd';
    case 'usb': return 'usb-storage';
  }
}

export interface DisksPart extends ArgsPart {
  usb: boolean;
  /** block node names of disks on shared storage: a migration leaves them where they are */
  sharedDisks: string[];
}

export function renderDiskArgs(input: ConverterInput, opts: { ahciBus: string }): DisksPart {
  const plans = (input.vmi.spec.domain.devices?.disks ?? []).map((d, i) => planDisk(input, d, i)).filter((p) => p !== undefined);
  const names = new Set<string>();
  const args: string[] = [];
  const files: FileToCreate[] = [];
  let sataPort = 0;
  // always there, as in KubeVirt's domains: hot-plugged disks attach to it (HOTPLUG_SCSI_BUS)
  args.push('-device', renderJson({ driver: 'virtio-scsi-pci', id: 'scsi0' }));
  for (const p of plans) {
    if (names.has(p.disk.name)) throw invalid(`spec.domain.devices.disks: two disks named '${p.disk.name}'`);
    names.add(p.disk.name);
    if (p.bus === 'sata' && sataPort >= AHCI_PORTS) throw invalid(`spec.domain.devices.disks: more than ${AHCI_PORTS} SATA disks`);
    const bus = p.bus === 'sata' ? `${opts.ahciBus}.${sataPort++}` : BUS_IDS[p.bus];
    args.push('-blockdev', renderBlockdev(p));
    args.push('-device', renderJson({
      driver: deviceDriver(p), id: userAlias(p.disk.name), bus, drive: `drive-${p.disk.name}`,
      bootindex: p.disk.bootOrder, serial: p.disk.serial,
      'write-cache': p.disk.cache === 'writethrough' ? 'off' : undefined,
    }));
    files.push(...p.source.files);
  }
  return { args, files, usb: plans.some((p) => p.bus === 'usb'), sharedDisks: plans.filter((p) => p.source.shared).map((p) => `drive-${p.disk.name}`) };
}
