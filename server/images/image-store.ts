/**
 * The local image store (`DATA_DIR/images/`): containerDisk image references → files on this
 * machine. Lookups are synchronous and cheap (one small JSON read), so controllers and the
 * launcher can call them on every sync.
 */
import { join, resolve } from 'node:path';
import { imageDirName, parseImageReference } from './image-name';
import { listImageDirs, readManifest, type ImageManifest } from './store-layout';
import { toImageEntry, type ImageEntry } from './image-entry';
import { DEMO_IMAGE_NAME } from './image-import';

export type { ImageEntry } from './image-entry';
export { importImage, importDemoImage, ImageImportError, DEMO_IMAGE_NAME, type ImportOptions } from './image-import';
export { ImageExistsError } from './store-layout';
export { imageDirName, parseImageReference } from './image-name';

/**
 * KubeVirt's own demo containerDisk (its README and examples use it): when the store has no
 * image of that name, it resolves to the built-in `demo` guest so those manifests run unchanged.
 */
const DEMO_ALIAS_REPOSITORY = 'cirros-container-disk-demo';

export interface StoredImage extends ImageEntry {
  importedAt: string;
  sizeBytes?: number;
  source?: string;
  /** pulled from a registry: the image manifest's digest */
  digest?: string;
}

/** The image for a containerDisk reference, or undefined (unknown or invalid reference). */
export function resolveImage(imagesDir: string, ref: string): ImageEntry | undefined {
  const dirName = imageDirName(ref);
  if (!dirName) return undefined;
  const dir = join(resolve(imagesDir), dirName);
  const manifest = readManifest(dir);
  if (manifest) return toImageEntry(dir, manifest);
  return isDemoAlias(ref) ? resolveImage(imagesDir, DEMO_IMAGE_NAME) : undefined;
}

function isDemoAlias(ref: string): boolean {
  const repository = parseImageReference(ref)?.repository ?? '';
  return repository.split('/').pop() === DEMO_ALIAS_REPOSITORY;
}

/** Every image in the store, sorted by name. */
export function listImages(imagesDir: string): StoredImage[] {
  const root = resolve(imagesDir);
  return listImageDirs(root)
    .map((d) => ({ dir: join(root, d), manifest: readManifest(join(root, d)) }))
    .filter((x): x is { dir: string; manifest: ImageManifest } => x.manifest !== undefined)
    .map(({ dir, manifest }) => ({
      ...toImageEntry(dir, manifest),
      importedAt: manifest.importedAt,
      sizeBytes: manifest.sizeBytes,
      source: manifest.source,
      ...(manifest.digest ? { digest: manifest.digest } : {}),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
