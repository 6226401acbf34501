/**
 * Embedded mode: does the local image store hold an image? Uses server/images' resolveImage when
 * that module is present; without it every image counts as present (the launcher will report).
 */
import type { ImageExists } from './vmi/check-images';

type Resolve = (imagesDir: string, ref: string) => unknown;
const IMAGE_STORE_MODULE = '../images/image-store';

export async function localImageCheck(imagesDir: string): Promise<ImageExists | undefined> {
  try {
    const mod = (await import(/* @vite-ignore */ IMAGE_STORE_MODULE)) as { resolveImage?: Resolve };
    const resolve = mod.resolveImage;
    return resolve ? (ref) => resolve(imagesDir, ref) !== undefined : undefined;
  } catch {
    return undefined;
  }
}
