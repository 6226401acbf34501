/**
 * Embedded mode: does the local image store hold an image? (server/images' resolveImage.)
 */
import { resolveImage } from '../images/image-store';
import type { ImageExists } from './vmi/check-images';

export function localImageCheck(imagesDir: string): ImageExists {
  return (ref) => resolveImage(imagesDir, ref) !== undefined;
}
