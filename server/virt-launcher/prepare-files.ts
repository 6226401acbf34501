/** Creates the files the converter asked for: qcow2 overlays (base never written), sparse empty disks (blocks on first write), EFI vars copies. */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import type { FileToCreate } from './converter/converter-types';

const run = promisify(execFile);
const QEMU_IMG = 'qemu-img';
const QEMU_IMG_TIMEOUT_MS = 30_000;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

async function createFile(f: FileToCreate): Promise<void> {
  if (f.kind !== 'mustExist') await mkdir(dirname(f.path), { recursive: true });
  switch (f.kind) {
    case 'overlay':
      await run(QEMU_IMG, ['create', '-q', '-f', 'qcow2', '-F', f.backingFormat, '-b', f.backing, f.path], { timeout: QEMU_IMG_TIMEOUT_MS });
      return;
    case 'emptyDisk':
      await run(QEMU_IMG, ['create', '-q', '-f', 'qcow2', '-o', 'preallocation=off', f.path, String(f.sizeBytes)], { timeout: QEMU_IMG_TIMEOUT_MS });
      return;
    case 'copy':
      await copyFile(f.source, f.path);
      return;
    case 'rawDisk':
      await run(QEMU_IMG, ['create', '-q', '-f', 'raw', f.path, String(f.sizeBytes)], { timeout: QEMU_IMG_TIMEOUT_MS });
      return;
    case 'mustExist':
      throw new Error(`${f.what}: ${f.path} does not exist`);
  }
}

/** Creates every missing file, in parallel (existing ones are kept: a second `sync` must not wipe a disk). */
export async function createDomainFiles(files: FileToCreate[]): Promise<void> {
  await Promise.all(files.map(async (f) => {
    if (!(await exists(f.path))) await createFile(f);
  }));
}
