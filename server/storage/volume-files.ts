/**
 * The provisioner's hands on the disk: create a volume's directory (or sparse file for Block mode)
 * after checking the space is really there, grow it, and remove it when its volume is deleted.
 */
import { mkdir, open, rm, statfs, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { formatBytes } from '../../lib/kubevirt/quantity';

export class NotEnoughSpace extends Error {}

async function freeBytes(path: string): Promise<number> {
  const s = await statfs(path);
  return s.bavail * s.bsize;
}

export async function createVolumeFiles(path: string, sizeBytes: number, block: boolean, where: string, requested = formatBytes(sizeBytes)): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const free = await freeBytes(dirname(path));
  if (sizeBytes > free) {
    throw new NotEnoughSpace(`not enough free space on ${where}: requested ${requested}, available ${formatBytes(free)}`);
  }
  if (!block) {
    await mkdir(path, { recursive: true, mode: 0o777 });
    return;
  }
  const f = await open(path, 'a');
  await f.close();
  await truncate(path, sizeBytes);
}

export async function growVolumeFile(path: string, sizeBytes: number): Promise<void> {
  await truncate(path, sizeBytes);
}

export async function removeVolumeFiles(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
}
