/**
 * PURE: the target device name KubeVirt gives each disk (`vda`, `vdb`, `sda`, …) and reports in
 * `status.volumeStatus[].target`: a prefix by bus (virtio → vd; sata, scsi, usb → sd), then the
 * first free index of that prefix in disk order, written as the kernel's sd.c writes it
 * (a…z, aa…zz, aaa…). A name already reported for a disk stays its own, so a hot-plugged disk
 * never renames the others.
 */
import type { Disk } from './vmi-spec-types';

const LETTERS = 26;
/** KubeVirt's bound: three letters */
const MAX_INDEX = LETTERS * LETTERS * LETTERS;

export function formatDeviceName(prefix: string, index: number): string {
  let name = '';
  for (let i = index; i >= 0; i = Math.floor(i / LETTERS) - 1) name = String.fromCharCode(97 + (i % LETTERS)) + name;
  return prefix + name;
}

/** the bus a disk is on, with KubeVirt's defaults (disk: virtio, cdrom: sata, lun: scsi) */
export function diskBus(disk: Disk): string | undefined {
  if (disk.disk) return disk.disk.bus ?? 'virtio';
  if (disk.cdrom) return disk.cdrom.bus ?? 'sata';
  if (disk.lun) return disk.lun.bus ?? 'scsi';
  return undefined;
}

export function busPrefix(bus: string | undefined): string | undefined {
  if (bus === 'virtio') return 'vd';
  if (bus === 'sata' || bus === 'scsi' || bus === 'usb') return 'sd';
  return undefined;
}

/** disk name → target, keeping the targets in `known` (disk name → the target reported before) */
export function diskTargets(disks: Disk[], known: Record<string, string> = {}): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  const pending: [Disk, string][] = [];
  for (const d of disks) {
    const prefix = busPrefix(diskBus(d));
    if (prefix === undefined) continue;
    const kept = known[d.name];
    if (kept?.startsWith(prefix) && !used.has(kept)) {
      out.set(d.name, kept);
      used.add(kept);
    } else {
      pending.push([d, prefix]);
    }
  }
  for (const [d, prefix] of pending) {
    for (let i = 0; i < MAX_INDEX; i++) {
      const name = formatDeviceName(prefix, i);
      if (used.has(name)) continue;
      out.set(d.name, name);
      used.add(name);
      break;
    }
  }
  return out;
}
