/**
 * A DataVolume's `registry: {url: "docker://…"}` source: the containerDisk image is pulled into the
 * node's image store (server/images image-pull.ts: the same client, layer cache and digest index
 * a VMI's containerDisk uses; anonymous, Kubernetes' default pull policy) and its /disk/ file is
 * what the importer converts into the claim. An image imported by hand is used as it is.
 */
import { ensureImage } from '../../images/image-pull';
import { RegistryError } from '../../images/registry/registry-error';
import { ImportError } from './fetch-source';

/** The disk file for `ref` (without `docker://`), or undefined when there is no image store. */
export async function registrySourceDisk(imagesDir: string | undefined, ref: string): Promise<string | undefined> {
  if (!imagesDir) return undefined;
  try {
    return (await ensureImage(imagesDir, ref)).entry.disk;
  } catch (err) {
    if (err instanceof RegistryError) throw new ImportError(`failed to pull image "${ref}": ${err.message}`);
    throw err;
  }
}
