/**
 * Where snapshot data lives and how it is copied: each claim's disk (disk.img, or the Block file)
 * copied with `cp --reflink=auto --sparse=always` into the snapshot's directory — a reflink where
 * the filesystem has them, else a copy of the written blocks only (holes stay holes).
 */
import { execFile } from 'node:child_process';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { dataPaths } from '../../data-dir';

const run = promisify(execFile);

export function snapshotDir(dataDir: string, namespace: string, content: string): string {
  return dataPaths(dataDir).snapshotContent(namespace, content);
}

/** The file behind a claim's volume path: disk.img inside a directory, the path itself for Block. */
export async function diskFileOf(volumePath: string): Promise<string> {
  return (await stat(volumePath)).isDirectory() ? join(volumePath, 'disk.img') : volumePath;
}

export async function copyDisk(from: string, to: string): Promise<void> {
  await mkdir(join(to, '..'), { recursive: true });
  try {
    await run('cp', ['--reflink=auto', '--sparse=always', from, to]);
  } catch (err) {
    throw new Error(`copying ${from}: ${(err as { stderr?: string }).stderr?.trim() || (err as Error).message}`, { cause: err });
  }
}

/** Restore: the saved disk back over the claim's (Block files are written in place, never replaced). */
export async function restoreDisk(from: string, to: string, block: boolean): Promise<void> {
  const args = block ? ['--sparse=always', from, to] : ['--reflink=auto', '--sparse=always', from, `${to}.restore`];
  try {
    await run('cp', args);
    if (!block) await run('mv', ['-f', `${to}.restore`, to]);
  } catch (err) {
    await rm(`${to}.restore`, { force: true });
    throw new Error(`restoring ${to}: ${(err as { stderr?: string }).stderr?.trim() || (err as Error).message}`, { cause: err });
  }
}

export async function removeSnapshotData(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
