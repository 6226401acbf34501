/** What the launcher gets for an image reference: absolute paths of the image's files. */
import { join } from 'node:path';
import type { DiskFormat } from './qemu-img';
import type { ImageManifest } from './store-layout';

export interface ImageEntry {
  /** Canonical reference, e.g. `demo:latest`, `quay.io/containerdisks/cirros:latest`. */
  name: string;
  /** The image's directory (inside the images dir). */
  dir: string;
  format: DiskFormat;
  /** The disk file: a qcow2 overlay's backing file, or an ISO to attach read-only. */
  disk?: string;
  /** Direct kernel boot (the demo image): used when the VMI has no kernelBoot of its own. */
  kernel?: string;
  initrd?: string;
  cmdline?: string;
}

export function toImageEntry(dir: string, m: ImageManifest): ImageEntry {
  const entry: ImageEntry = { name: m.name, dir, format: m.format };
  if (m.disk) entry.disk = join(dir, m.disk);
  if (m.kernel) entry.kernel = join(dir, m.kernel);
  if (m.initrd) entry.initrd = join(dir, m.initrd);
  if (m.cmdline !== undefined) entry.cmdline = m.cmdline;
  return entry;
}
