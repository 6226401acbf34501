/**
 * The importer's work, CDI's way: fill a claim with one disk image — downloaded (http), copied from
 * another claim (pvc), taken from the node's image store (registry), or made empty (blank) — as a
 * raw `disk.img` sized to the claim (Filesystem) or written onto the device (Block). Formats are
 * converted with `qemu-img`; images with a backing file, or larger than the claim, are refused.
 * An http source is downloaded into a scratch file first when the scratch dir has room for it
 * (the claim's size); without that room, and when the server serves byte ranges, it is converted
 * straight from the URL in one pass (ranged-source.ts), needing no scratch space. The download is
 * the default because QEMU 7.2's curl driver stalls forever mid-transfer in about a third of the
 * converts measured here (docs/performance.md): a convert from the URL that moves no byte for
 * `stallMs` is killed and the import downloads instead (stall-guard.ts).
 * A failure leaves no partial disk behind.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, rename, rm, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inspectDisk } from '../../images/qemu-img';
import { ImportError, fetchToFile } from './fetch-source';
import type { ImportJob } from './importer-env';
import type { ProgressFile } from './progress';
import { rangedSource } from './ranged-source';
import { guardStall } from './stall-guard';

const run = promisify(execFile);
export const DISK_IMAGE = 'disk.img';
/** how long a convert from a URL may move no byte before the importer gives up on it */
export const DEFAULT_STALL_MS = 20_000;

/** the convert from a URL stopped moving bytes (a QEMU curl driver hang); the import downloads instead */
class TransferStalled extends ImportError {}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path)).isDirectory();
}

async function qemuImg(args: string[]): Promise<void> {
  try {
    await run('qemu-img', args, { maxBuffer: 4 << 20 });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new ImportError(`qemu-img ${args[0]} failed: ${stderr || (err as Error).message}`);
  }
}

/** qemu-img's view of a source file, refusing what CDI refuses; a URL's `qemu-img info` gets `stallMs` to answer */
async function checkSource(file: string, capacity: number, stallMs?: number): Promise<{ format: string; virtualSize: number }> {
  let info;
  try {
    info = await inspectDisk(file, stallMs);
  } catch (err) {
    if (stallMs && (err as { killed?: boolean }).killed) throw new TransferStalled(`qemu-img info did not answer in ${stallMs} ms`);
    throw new ImportError(`unable to read the image: ${(err as { stderr?: string }).stderr?.trim() || (err as Error).message}`);
  }
  if (info.backingFile) throw new ImportError('Image is invalid: it has a backing file, which is not allowed');
  if (info.virtualSize > capacity) {
    throw new ImportError(`Virtual image size ${info.virtualSize} is larger than the reported available storage ${capacity}. A larger PVC is required.`);
  }
  return { format: info.qemuFormat, virtualSize: info.virtualSize };
}

/**
 * `qemu-img convert -p`, its percentages reported as the import's progress; with `stallMs`, killed
 * (TransferStalled) when it reads and writes nothing for that long.
 */
function convertWithProgress(args: string[], progress: ProgressFile, stallMs?: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn('qemu-img', ['convert', '-p', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stalled = false;
    const unguard = stallMs && p.pid ? guardStall(p.pid, stallMs, () => { stalled = true; p.kill('SIGKILL'); }) : () => {};
    p.on('close', unguard);
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => {
      const pct = [...d.toString().matchAll(/\((\d+(?:\.\d+)?)\/100%\)/g)].pop()?.[1];
      if (pct !== undefined) progress.report(Number(pct), 100);
    });
    p.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    p.on('error', (err) => reject(new ImportError(`qemu-img convert failed: ${err.message}`)));
    p.on('close', (code) => {
      if (code === 0) resolve();
      else if (stalled) reject(new TransferStalled(`qemu-img convert moved no data for ${stallMs} ms`));
      else reject(new ImportError(`qemu-img convert failed: ${stderr.trim() || `exit ${code}`}`));
    });
  });
}

/**
 * `file` (any format qemu-img reads; a local path, or qemu's `json:` filename of a ranged http
 * source) → raw at `dest`, grown to `capacity` on a Filesystem claim.
 */
async function writeRaw(file: string, format: string, dest: string, block: boolean, capacity: number, progress?: ProgressFile, stallMs?: number): Promise<void> {
  const convert = (args: string[]) => (progress ? convertWithProgress(args, progress, stallMs) : qemuImg(['convert', ...args]));
  if (block) {
    await convert(['-f', format, '-O', 'raw', '-n', '-t', 'writeback', file, dest]);
    return;
  }
  if (format === 'raw' && !file.startsWith('json:')) await rename(file, dest);
  else await convert(['-f', format, '-O', 'raw', '-t', 'writeback', file, dest]);
  await qemuImg(['resize', '-f', 'raw', dest, String(capacity)]);
}

/**
 * A disk image already in a scratch file (an upload) → the claim's disk: checked, converted and
 * sized as an import is. `target`: the claim's directory or Block file. Leaves no partial disk.
 */
export async function diskFromFile(scratch: string, target: string, sizeBytes: number): Promise<void> {
  const block = !(await isDirectory(target));
  const dest = block ? target : join(target, DISK_IMAGE);
  try {
    const { format } = await checkSource(scratch, sizeBytes);
    await writeRaw(scratch, format, dest, block, sizeBytes);
  } catch (err) {
    if (!block) await rm(dest, { force: true });
    throw err;
  }
}

export interface ImportOptions {
  /** the node's image store: a registry reference → its file */
  resolveImage?: (ref: string) => string | undefined;
  /** see DEFAULT_STALL_MS */
  stallMs?: number;
  /** told when the import changes course (a stalled convert from the URL → a download) */
  warn?: (message: string) => void;
  /** when to convert an http source straight from the URL: only without scratch room (default), or whenever the server allows */
  ranged?: 'without-scratch-room' | 'always';
}

/** bytes free for an unprivileged writer under `dir` */
async function freeBytes(dir: string): Promise<number> {
  try {
    const fs = await statfs(dir);
    return fs.bavail * fs.bsize;
  } catch {
    return 0;
  }
}

export async function importDisk(job: ImportJob, progress: ProgressFile, opts: ImportOptions = {}): Promise<string> {
  const { resolveImage, stallMs = DEFAULT_STALL_MS } = opts;
  const block = !(await isDirectory(job.target));
  const dest = block ? job.target : join(job.target, DISK_IMAGE);
  const scratchDir = block ? job.podDir : job.target;
  await mkdir(scratchDir, { recursive: true });
  const scratch = join(scratchDir, `.import-${process.pid}.tmp`);
  try {
    switch (job.source) {
      case 'blank':
        if (!block) await qemuImg(['create', '-q', '-f', 'raw', dest, String(job.sizeBytes)]);
        progress.report(1, 1);
        return 'Import Complete';
      case 'http': {
        // a checksum needs every byte in order: only a download gives it
        const tryRanged = !job.checksum && (opts.ranged === 'always' || (await freeBytes(scratchDir)) < job.sizeBytes);
        const ranged = tryRanged ? await rangedSource(job.endpoint!) : undefined;
        if (ranged) {
          try {
            const { format } = await checkSource(ranged, job.sizeBytes, stallMs);
            await writeRaw(ranged, format, dest, block, job.sizeBytes, progress, stallMs);
            break;
          } catch (err) {
            if (!(err instanceof TransferStalled)) throw err;
            opts.warn?.(`${err.message}; downloading the image instead`);
            if (!block) await rm(dest, { force: true });
            progress.write('0.00%');
          }
        }
        const fetched = await fetchToFile(job.endpoint!, scratch, { checksumAlgorithm: job.checksum?.algorithm, progress });
        if (job.checksum && fetched.digest !== job.checksum.hex) {
          throw new ImportError(`checksum mismatch: expected ${job.checksum.algorithm}:${job.checksum.hex}, got ${job.checksum.algorithm}:${fetched.digest}`);
        }
        const { format } = await checkSource(scratch, job.sizeBytes);
        await writeRaw(scratch, format, dest, block, job.sizeBytes);
        break;
      }
      case 'registry': {
        const file = resolveImage?.(job.endpoint!);
        if (!file) throw new ImportError(`image ${JSON.stringify(job.endpoint)} not found in the node's image store (import it with \`kv images import\`)`);
        const { format } = await checkSource(file, job.sizeBytes);
        await qemuImg(['convert', '-f', format, '-O', 'raw', ...(block ? ['-n'] : []), '-t', 'writeback', file, dest]);
        if (!block) await qemuImg(['resize', '-f', 'raw', dest, String(job.sizeBytes)]);
        break;
      }
      case 'upload':
        throw new ImportError('upload sources are filled by the upload endpoint');
      case 'pvc': {
        const src = (await isDirectory(job.sourcePath!)) ? join(job.sourcePath!, DISK_IMAGE) : job.sourcePath!;
        const { format } = await checkSource(src, job.sizeBytes);
        await qemuImg(['convert', '-f', format, '-O', 'raw', ...(block ? ['-n'] : []), '-t', 'writeback', src, dest]);
        if (!block) await qemuImg(['resize', '-f', 'raw', dest, String(job.sizeBytes)]);
        break;
      }
    }
    progress.report(1, 1);
    return job.source === 'pvc' ? 'Clone Complete' : 'Import Complete';
  } catch (err) {
    if (!block) await rm(dest, { force: true });
    throw err;
  } finally {
    await rm(scratch, { force: true });
  }
}
