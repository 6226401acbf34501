/**
 * Putting images into the store: a user's disk file (`kv images import`), or the built-in
 * `demo` guest from scripts/build-demo-image.sh's output. Imported files are copied (reflinked
 * where the filesystem can) and never modified afterwards: VMs write to overlays.
 */
import { constants, existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { log } from '../log';
import { imageDirName, parseImageReference } from './image-name';
import { CONVERTIBLE_FORMATS, convertToQcow2, inspectDisk, type DiskFormat } from './qemu-img';
import { createDemoScratchDisk } from './demo-scratch-disk';
import { createStagingDir, ImageExistsError, publishImage, readManifest, removeStaging, type ImageManifest } from './store-layout';
import { toImageEntry, type ImageEntry } from './image-entry';

const logger = log.child({ component: 'image-store' });

export const DEMO_IMAGE_NAME = 'demo';
const READ_ONLY = 0o444;

export class ImageImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageImportError';
  }
}

export interface ImportOptions {
  /** Overwrite an image of the same name (running VMs keep the old, unlinked files). */
  replace?: boolean;
  /** Direct kernel boot files that come with the disk (copied next to it). */
  kernel?: string;
  initrd?: string;
  cmdline?: string;
}

/** Imports a qcow2, raw or ISO file (vmdk/vdi/vhdx/vpc/qed are converted to qcow2) as `name`. */
export async function importImage(imagesDir: string, name: string, file: string, opts: ImportOptions = {}): Promise<ImageEntry> {
  const dirName = requireDirName(name);
  const src = resolve(file);
  const info = await inspectDisk(src).catch((err: Error) => {
    throw new ImageImportError(`cannot read ${file}: ${err.message.trim()}`);
  });
  if (info.virtualSize === 0) throw new ImageImportError(`${file} is empty`);
  if (info.backingFile) throw new ImageImportError(`${file} has a backing file (${info.backingFile}); flatten it first: qemu-img convert -O qcow2 ${file} flat.qcow2`);
  const convert = info.format === undefined;
  if (convert && !(CONVERTIBLE_FORMATS as readonly string[]).includes(info.qemuFormat)) {
    throw new ImageImportError(`${file}: unsupported disk format ${info.qemuFormat}`);
  }
  const format: DiskFormat = info.format ?? 'qcow2';
  const disk = `disk.${format === 'iso' ? 'iso' : format === 'raw' ? 'img' : 'qcow2'}`;
  const staging = await createStagingDir(imagesDir, dirName);
  try {
    if (convert) await convertToQcow2(src, join(staging, disk));
    else await copyFile(src, join(staging, disk), constants.COPYFILE_FICLONE);
    await chmod(join(staging, disk), READ_ONLY);
    const boot = await copyBootFiles(staging, opts);
    const manifest: ImageManifest = {
      name: canonicalName(name), format, disk, ...boot, importedAt: new Date().toISOString(),
      source: src, sizeBytes: (await stat(join(staging, disk))).size,
    };
    const dir = await publishImage({ imagesDir, dirName, staging, manifest, replace: opts.replace });
    logger.info({ image: manifest.name, format, convertedFrom: convert ? info.qemuFormat : undefined }, 'image imported');
    return toImageEntry(dir, manifest);
  } finally {
    await removeStaging(staging);
  }
}

async function copyBootFiles(staging: string, opts: ImportOptions): Promise<Pick<ImageManifest, 'kernel' | 'initrd' | 'cmdline'>> {
  const out: Pick<ImageManifest, 'kernel' | 'initrd' | 'cmdline'> = {};
  for (const key of ['kernel', 'initrd'] as const) {
    const src = opts[key];
    if (!src) continue;
    const dst = key === 'kernel' ? 'vmlinuz' : 'initrd';
    await copyFile(resolve(src), join(staging, dst), constants.COPYFILE_FICLONE);
    await chmod(join(staging, dst), READ_ONLY);
    out[key] = dst;
  }
  if (opts.cmdline !== undefined) out.cmdline = opts.cmdline;
  return out;
}

interface DemoBuild { buildKey: string; kernel: string; initrd: string }

/**
 * Registers the demo build in `buildDir` as `demo` (kernel, initrd, cmdline and a 64 MiB ext2
 * scratch disk, see demo-scratch-disk.ts). Does nothing when the store already holds this very build.
 */
export async function importDemoImage(imagesDir: string, buildDir: string): Promise<ImageEntry> {
  const build = readDemoBuild(buildDir);
  const dirName = requireDirName(DEMO_IMAGE_NAME);
  const current = readManifest(join(imagesDir, dirName));
  if (current?.buildKey === build.buildKey) return toImageEntry(join(imagesDir, dirName), current);
  const staging = await createStagingDir(imagesDir, dirName);
  try {
    await createDemoScratchDisk(join(staging, 'disk.qcow2'));
    await chmod(join(staging, 'disk.qcow2'), READ_ONLY);
    const boot = await copyBootFiles(staging, {
      kernel: join(buildDir, build.kernel), initrd: join(buildDir, build.initrd),
      cmdline: readFileSync(join(buildDir, 'cmdline'), 'utf8').trim(),
    });
    const manifest: ImageManifest = {
      name: canonicalName(DEMO_IMAGE_NAME), format: 'qcow2', disk: 'disk.qcow2', ...boot,
      importedAt: new Date().toISOString(), source: resolve(buildDir), buildKey: build.buildKey,
      sizeBytes: await totalSize(staging, ['disk.qcow2', boot.kernel, boot.initrd]),
    };
    const dir = await publishDemo(imagesDir, dirName, staging, manifest);
    logger.info({ image: manifest.name, buildKey: build.buildKey }, 'demo image imported');
    return toImageEntry(dir, manifest);
  } finally {
    await removeStaging(staging);
  }
}

/** Replaces an older demo; a concurrent import of the same build counts as success. */
async function publishDemo(imagesDir: string, dirName: string, staging: string, manifest: ImageManifest): Promise<string> {
  try {
    return await publishImage({ imagesDir, dirName, staging, manifest, replace: true });
  } catch (err) {
    const dir = join(imagesDir, dirName);
    if (err instanceof ImageExistsError && readManifest(dir)?.buildKey === manifest.buildKey) return dir;
    throw err;
  }
}

async function totalSize(dir: string, files: (string | undefined)[]): Promise<number> {
  let sum = 0;
  for (const f of files) if (f) sum += (await stat(join(dir, f))).size;
  return sum;
}

function readDemoBuild(buildDir: string): DemoBuild {
  const file = join(buildDir, 'image.json');
  if (!existsSync(file)) throw new ImageImportError(`no demo build in ${buildDir} (run scripts/build-demo-image.sh ${buildDir})`);
  const meta = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoBuild>;
  if (!meta.buildKey || !meta.kernel || !meta.initrd) throw new ImageImportError(`${file} is not a demo build description`);
  return { buildKey: meta.buildKey, kernel: meta.kernel, initrd: meta.initrd };
}

function requireDirName(name: string): string {
  const dir = imageDirName(name);
  if (!dir) throw new ImageImportError(`invalid image name ${JSON.stringify(name)} (expected e.g. demo, my-disk:v1, quay.io/org/image:tag)`);
  return dir;
}

function canonicalName(name: string): string {
  return parseImageReference(name)?.canonical ?? name;
}
