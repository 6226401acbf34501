/**
 * On-disk layout of the image store: `IMAGES/<dir>/image.json` (the manifest) next to the
 * image's files. An image directory appears by one rename(2) of a fully written staging
 * directory, so readers see a complete image or none; its files are read-only afterwards.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DiskFormat } from './qemu-img';

export const MANIFEST_FILE = 'image.json';
const STAGING_PREFIX = '.staging-';
const RETIRED_PREFIX = '.retired-';

export interface ImageManifest {
  /** Canonical reference, e.g. `demo:latest`. */
  name: string;
  format: DiskFormat;
  /** File names inside the image directory. */
  disk?: string;
  kernel?: string;
  initrd?: string;
  cmdline?: string;
  importedAt: string;
  /** Where it came from (the imported file, or the demo build dir). */
  source?: string;
  /** The demo build's key (scripts/build-demo-image.sh), to skip identical re-imports. */
  buildKey?: string;
  sizeBytes?: number;
  /** Pulled from a registry: the image manifest's digest (sha256:…); unset for imported images. */
  digest?: string;
}

export class ImageExistsError extends Error {
  constructor(readonly ref: string) {
    super(`image ${ref} already exists (use --replace to overwrite it)`);
    this.name = 'ImageExistsError';
  }
}

/** Reads a manifest; undefined when missing, unreadable, or naming files outside its directory. */
export function readManifest(dir: string): ImageManifest | undefined {
  const file = join(dir, MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as ImageManifest;
    const files = [m.disk, m.kernel, m.initrd].filter((f): f is string => f !== undefined);
    if (typeof m.name !== 'string' || !files.every(isPlainFileName)) return undefined;
    return m;
  } catch {
    return undefined;
  }
}

function isPlainFileName(f: string): boolean {
  return typeof f === 'string' && f.length > 0 && f === basename(f) && f !== '.' && f !== '..';
}

/** Image directories (not staging or retired ones). */
export function listImageDirs(imagesDir: string): string[] {
  if (!existsSync(imagesDir)) return [];
  return readdirSync(imagesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
    .map((d) => d.name);
}

/** A fresh staging directory inside the store (same filesystem, so the final rename is atomic). */
export async function createStagingDir(imagesDir: string, dirName: string): Promise<string> {
  await mkdir(imagesDir, { recursive: true });
  const staging = await mkdtemp(join(imagesDir, `${STAGING_PREFIX}${dirName}-`));
  await chmod(staging, 0o755);
  return staging;
}

/**
 * Writes the manifest into the staging dir and moves it into place. An existing image is kept
 * (ImageExistsError) unless `replace`; a replaced image's files are unlinked, so a QEMU that
 * has them open keeps reading the old content.
 */
export async function publishImage(opts: { imagesDir: string; dirName: string; staging: string; manifest: ImageManifest; replace?: boolean }): Promise<string> {
  const { imagesDir, dirName, staging, manifest } = opts;
  await writeFile(join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n', { mode: 0o444 });
  const dest = join(imagesDir, dirName);
  if (existsSync(dest)) {
    if (!opts.replace) throw new ImageExistsError(manifest.name);
    const retired = join(imagesDir, `${RETIRED_PREFIX}${dirName}-${process.pid}-${Date.now()}`);
    await rename(dest, retired);
    await rm(retired, { recursive: true, force: true });
  }
  try {
    await rename(staging, dest);
  } catch (err) {
    if (!isAlreadyThere(err)) throw err;
    throw new ImageExistsError(manifest.name);
  }
  return dest;
}

function isAlreadyThere(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOTEMPTY' || code === 'EEXIST';
}

/** Removes leftovers of imports that crashed half-way. */
export async function removeStaging(staging: string): Promise<void> {
  await rm(staging, { recursive: true, force: true });
}
