/**
 * Where snapshot data lives and how it is copied: each claim's disk (disk.img, or the Block file)
 * copied into the snapshot's directory by server/disk-copy.ts (a reflink where the filesystem has
 * them, else the written blocks only).
 */
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { dataPaths } from '../../data-dir';
import { copyDiskFile } from '../../disk-copy';

export function snapshotDir(dataDir: string, namespace: string, content: string): string {
  return dataPaths(dataDir).snapshotContent(namespace, content);
}

/** The file behind a claim's volume path: disk.img inside a directory, the path itself for Block. */
export async function diskFileOf(volumePath: string): Promise<string> {
  return (await stat(volumePath)).isDirectory() ? join(volumePath, 'disk.img') : volumePath;
}

export async function copyDisk(from: string, to: string): Promise<void> {
  await mkdir(join(to, '..'), { recursive: true });
  await copyDiskFile(from, to, { what: `copying ${from}` });
}

/** Restore: the saved disk back over the claim's (Block files are written in place, never replaced). */
export async function restoreDisk(from: string, to: string, block: boolean): Promise<void> {
  if (block) return copyDiskFile(from, to, { inPlace: true, what: `restoring ${to}` });
  try {
    await copyDiskFile(from, `${to}.restore`, { what: `restoring ${to}` });
    await rename(`${to}.restore`, to);
  } catch (err) {
    await rm(`${to}.restore`, { force: true });
    throw err;
  }
}

export async function removeSnapshotData(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
