/**
 * Pulling containerDisks from OCI registries into the per-node image store. Layers are cached by
 * digest in `IMAGES/.oci/blobs/` (shared by every reference and VMI that uses them); the disk is
 * extracted once per image digest into `IMAGES/.oci/disks/<hex>/` and hard-linked into the
 * reference's image directory, whose image.json records the digest (reference → digest index).
 * Concurrent pulls of one reference in this process share one pull; a blob is downloaded once per
 * data dir even by two processes at once (blob-lock.ts).
 */
import { existsSync, readdirSync } from 'node:fs';
import { chmod, link, mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { log } from '../log';
import { imageDirName, parseImageReference } from './image-name';
import { createStagingDir, publishImage, readManifest, removeStaging, type ImageManifest } from './store-layout';
import { toImageEntry, type ImageEntry } from './image-entry';
import { resolveImage } from './image-store';
import { inspectDisk } from './qemu-img';
import { downloadOnce } from './blob-lock';
import { effectivePullPolicy } from './pull-policy';
import { RegistryClient } from './registry/registry-client';
import { selectPlatform } from './registry/manifest';
import { extractDisk } from './registry/extract-disk';
import { RegistryError } from './registry/registry-error';
import { insecureRegistriesFromEnv, toRegistryReference, type RegistryReference } from './registry/registry-reference';
import { credentialsFor, type parseDockerConfigSecret } from './registry/docker-config';

const logger = log.child({ component: 'image-pull' });
const OCI_DIR = '.oci';

export interface PullOptions {
  /** `imagePullPolicy`; unset → Kubernetes' default for the reference. */
  policy?: string;
  /** `auths` maps from the pull Secrets (registry/docker-config.ts), first match wins. */
  auths?: ReturnType<typeof parseDockerConfigSecret>[];
  /** Hosts spoken to over http (loopback always is); default: KV_INSECURE_REGISTRIES. */
  insecureRegistries?: readonly string[];
  /** ms to wait for a registry's answer, and for the next bytes of a blob (default 60 s) */
  timeoutMs?: number;
}

export interface PullResult {
  entry: ImageEntry;
  /** The image manifest's digest; undefined for an image imported by hand (used as is). */
  digest?: string;
  /** Whether anything was fetched from the registry beyond the manifest. */
  pulled: boolean;
  /** Blobs downloaded by this pull (cached ones not counted). */
  blobsDownloaded: number;
}

const inflight = new Map<string, Promise<PullResult>>();

/** Makes `ref` present in the store as its pull policy says; a RegistryError says why not. */
export function ensureImage(imagesDir: string, ref: string, opts: PullOptions = {}): Promise<PullResult> {
  const key = `${resolve(imagesDir)}\0${ref}\0${opts.policy ?? ''}`;
  const running = inflight.get(key);
  if (running) return running;
  const p = ensureImageOnce(resolve(imagesDir), ref, opts).finally(() => inflight.delete(key));
  inflight.set(key, p);
  return p;
}

async function ensureImageOnce(imagesDir: string, ref: string, opts: PullOptions): Promise<PullResult> {
  const dirName = imageDirName(ref);
  const reg = toRegistryReference(ref);
  if (!dirName || !reg) throw new RegistryError('InvalidReference', `invalid reference format: ${JSON.stringify(ref)}`);
  const stored = readManifest(join(imagesDir, dirName));
  const local = resolveImage(imagesDir, ref);
  // imported by hand (kv images import, the demo and its alias): used as it is, never pulled
  if (local && !stored?.digest) return { entry: local, pulled: false, blobsDownloaded: 0 };
  const policy = effectivePullPolicy(ref, opts.policy);
  const have = stored && local ? { entry: local, digest: stored.digest, pulled: false, blobsDownloaded: 0 } : undefined;
  if (policy === 'Never') {
    if (have) return have;
    throw new RegistryError('NotPresent', `Container image "${ref}" is not present with pull policy of Never`);
  }
  if (have && (policy === 'IfNotPresent' || reg.digest)) return have;
  const client = new RegistryClient(reg, {
    credentials: credentialsFor(reg.registry, opts.auths ?? []),
    insecureRegistries: opts.insecureRegistries ?? insecureRegistriesFromEnv(),
    timeoutMs: opts.timeoutMs,
  });
  if (have) {
    const current = await client.headManifest(reg.reference).catch(() => undefined);
    if (current && current === have.digest) return have;
  }
  return pull(imagesDir, dirName, ref, reg, client);
}

async function pull(imagesDir: string, dirName: string, ref: string, reg: RegistryReference, client: RegistryClient): Promise<PullResult> {
  let top = await client.getManifest(reg.reference);
  if (top.manifest.kind === 'index') top = await client.getManifest(selectPlatform(top.manifest.manifests).digest);
  if (top.manifest.kind !== 'image') throw new RegistryError('ManifestInvalid', 'manifest invalid: an index names another index');
  const digest = top.digest;
  const blobsDir = join(imagesDir, OCI_DIR, 'blobs', 'sha256');
  await mkdir(blobsDir, { recursive: true });
  let blobsDownloaded = 0;
  const layers: string[] = [];
  for (const layer of top.manifest.layers) {
    if (layer.mediaType.includes('zstd')) throw new RegistryError('ManifestInvalid', `layer ${layer.digest} is zstd-compressed (${layer.mediaType}); only gzip and uncompressed layers are supported`);
    const file = join(blobsDir, layer.digest.replace(/^sha256:/, ''));
    if (await downloadOnce(file, () => client.fetchBlob(layer.digest, file))) blobsDownloaded++;
    layers.push(file);
  }
  const disk = await diskFor(imagesDir, digest, layers);
  const entry = await publishPulled(imagesDir, dirName, ref, reg, digest, disk);
  logger.info({ image: reg.canonical, digest, blobsDownloaded }, 'image pulled');
  return { entry, digest, pulled: true, blobsDownloaded };
}

interface DiskFile { file: string; format: ImageManifest['format'] }

/** The disk of image `digest`, extracted once (the directory appears by one rename). */
async function diskFor(imagesDir: string, digest: string, layers: string[]): Promise<DiskFile> {
  const dir = join(imagesDir, OCI_DIR, 'disks', digest.replace(/^sha256:/, ''));
  if (!existsSync(dir)) {
    await mkdir(join(imagesDir, OCI_DIR, 'disks'), { recursive: true });
    const staging = await mkdtemp(`${dir}.staging-`);
    try {
      const got = await extractDisk(layers, staging);
      await rename(got.file, join(staging, got.name));
      await chmod(join(staging, got.name), 0o444);
      await rename(staging, dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err; // another process won
      });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
  const name = readdirSync(dir)[0];
  const file = join(dir, name);
  const info = await inspectDisk(file);
  if (info.backingFile) throw new RegistryError('NoDisk', `/disk/${name} is a qcow2 with a backing file (${info.backingFile}); a containerDisk must be self-contained`);
  if (!info.format) throw new RegistryError('NoDisk', `/disk/${name} is ${info.qemuFormat}; a containerDisk holds a qcow2, raw or ISO disk`);
  return { file, format: info.format };
}

async function publishPulled(imagesDir: string, dirName: string, ref: string, reg: RegistryReference, digest: string, disk: DiskFile): Promise<ImageEntry> {
  const staging = await createStagingDir(imagesDir, dirName);
  try {
    const name = `disk.${disk.format === 'iso' ? 'iso' : disk.format === 'raw' ? 'img' : 'qcow2'}`;
    await link(disk.file, join(staging, name));
    const manifest: ImageManifest = {
      name: parseImageReference(ref)?.canonical ?? ref, format: disk.format, disk: name, importedAt: new Date().toISOString(),
      source: `${reg.registry}/${reg.repository}@${digest}`, digest, sizeBytes: (await stat(disk.file)).size,
    };
    const dir = await publishImage({ imagesDir, dirName, staging, manifest, replace: true });
    return toImageEntry(dir, manifest);
  } finally {
    await removeStaging(staging);
  }
}
