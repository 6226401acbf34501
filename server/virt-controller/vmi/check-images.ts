/**
 * PURE: in embedded mode there is no kubelet image pull, so the controller checks the local image
 * store before it creates a launcher Pod and reports a missing image the way a kubelet would
 * (`ErrImagePull`), as Synchronized=False on the VMI; the VMI stays Pending and is retried with
 * backoff, so `kv images import` later lets it start (like ImagePullBackOff recovering).
 */
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import { Reason } from './constants';

export type ImageExists = (ref: string) => boolean;

/** Every image the VMI needs: containerDisk volumes and a kernelBoot container. */
export function imagesOf(vmi: VirtualMachineInstance): string[] {
  const refs = (vmi.spec?.volumes ?? []).flatMap((v) => (v.containerDisk?.image ? [v.containerDisk.image] : []));
  const kernel = vmi.spec?.domain?.firmware?.kernelBoot?.container?.image;
  return kernel ? [...refs, kernel] : refs;
}

export function missingImageError(ref: string): { reason: string; message: string } {
  return { reason: Reason.ErrImagePull, message: `image "${ref}" not found in the local image store; import it with kv images import` };
}

/** The first image that is not in the store, as a sync error; undefined when all are there. */
export function checkImages(vmi: VirtualMachineInstance, imageExists: ImageExists | undefined): { reason: string; message: string } | undefined {
  if (!imageExists) return undefined;
  const missing = imagesOf(vmi).find((ref) => !imageExists(ref));
  return missing === undefined ? undefined : missingImageError(missing);
}
