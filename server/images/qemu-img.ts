/**
 * What kind of disk file is this? `qemu-img info --output=json`, plus the ISO9660 signature
 * (qemu-img calls an ISO "raw").
 */
import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type DiskFormat = 'qcow2' | 'raw' | 'iso';

/** Formats qemu-img can read that the store converts to qcow2 on import. */
export const CONVERTIBLE_FORMATS = ['vmdk', 'vdi', 'vhdx', 'vpc', 'qed'] as const;

/** Offset of the ISO9660 primary volume descriptor's "CD001" signature. */
const ISO9660_MAGIC_OFFSET = 32769;
const ISO9660_MAGIC = 'CD001';

export interface DiskInfo {
  /** qemu-img's format name (`qcow2`, `raw`, `vmdk`, …). */
  qemuFormat: string;
  /** Our format: raw files holding an ISO9660 filesystem are `iso`. */
  format: DiskFormat | undefined;
  virtualSize: number;
  backingFile?: string;
}

interface QemuImgInfo { format: string; 'virtual-size': number; 'backing-filename'?: string }

/** `file`: a path, or qemu's `json:` filename of a remote source (no ISO check there: it reads as raw). */
/** `timeoutMs`: qemu-img is killed (SIGKILL) after this long — a URL's reads can hang (QEMU's curl driver) */
export async function inspectDisk(file: string, timeoutMs = 0): Promise<DiskInfo> {
  const { stdout } = await run('qemu-img', ['info', '--output=json', '-U', file], { maxBuffer: 4 << 20, timeout: timeoutMs, killSignal: 'SIGKILL' });
  const info = JSON.parse(stdout) as QemuImgInfo;
  let format: DiskFormat | undefined;
  if (info.format === 'qcow2') format = 'qcow2';
  else if (info.format === 'raw') format = !file.startsWith('json:') && (await hasIso9660Signature(file)) ? 'iso' : 'raw';
  return { qemuFormat: info.format, format, virtualSize: info['virtual-size'], backingFile: info['backing-filename'] };
}

export async function hasIso9660Signature(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(ISO9660_MAGIC.length);
    const { bytesRead } = await fh.read(buf, 0, buf.length, ISO9660_MAGIC_OFFSET);
    return bytesRead === buf.length && buf.toString('latin1') === ISO9660_MAGIC;
  } finally {
    await fh.close();
  }
}

export async function convertToQcow2(src: string, dst: string): Promise<void> {
  await run('qemu-img', ['convert', '-O', 'qcow2', src, dst]);
}

export async function createQcow2(file: string, sizeBytes: number): Promise<void> {
  await run('qemu-img', ['create', '-q', '-f', 'qcow2', file, String(sizeBytes)]);
}
