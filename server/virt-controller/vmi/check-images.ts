/**
 * PURE: what the controller can say about a VMI's images before it creates the launcher Pod.
 * containerDisks not in the local image store are pulled by the node's kubelet (server/node
 * image-pulls.ts), which reports failures on the Pod (ErrImagePull / ImagePullBackOff) and the
 * controller copies them to the VMI (compute-status.ts). So only what no pull can fix is refused
 * here: an image that is not local with `imagePullPolicy: Never` (the kubelet's ErrImageNeverPull),
 * a reference that does not parse, and a kernelBoot container image not in the store (those are
 * not pulled). The VMI stays Pending and is retried, so `kv images import` later lets it start.
 */
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import { parseImageReference } from '../../images/image-name';
import { Reason } from './constants';

export type ImageExists = (ref: string) => boolean;
export const ERR_IMAGE_NEVER_PULL = 'ErrImageNeverPull';

/** Every image the VMI needs: containerDisk volumes and a kernelBoot container. */
export function imagesOf(vmi: VirtualMachineInstance): string[] {
  const refs = (vmi.spec?.volumes ?? []).flatMap((v) => (v.containerDisk?.image ? [v.containerDisk.image] : []));
  const kernel = vmi.spec?.domain?.firmware?.kernelBoot?.container?.image;
  return kernel ? [...refs, kernel] : refs;
}

export function missingImageError(ref: string): { reason: string; message: string } {
  return { reason: Reason.ErrImagePull, message: `image "${ref}" not found in the local image store; import it with kv images import` };
}

function containerDiskError(ref: string, policy: string | undefined): { reason: string; message: string } | undefined {
  if (!parseImageReference(ref)) return missingImageError(ref);
  if (policy === 'Never') return { reason: ERR_IMAGE_NEVER_PULL, message: `Container image "${ref}" is not present with pull policy of Never` };
  return undefined; // the node pulls it
}

/** The first image problem, as a sync error; undefined when every image is local or pullable. */
export function checkImages(vmi: VirtualMachineInstance, imageExists: ImageExists | undefined): { reason: string; message: string } | undefined {
  if (!imageExists) return undefined;
  for (const v of vmi.spec?.volumes ?? []) {
    const cd = v.containerDisk;
    if (!cd?.image || imageExists(cd.image)) continue;
    const err = containerDiskError(cd.image, cd.imagePullPolicy);
    if (err) return err;
  }
  const kernel = vmi.spec?.domain?.firmware?.kernelBoot?.container?.image;
  return kernel && !imageExists(kernel) ? missingImageError(kernel) : undefined;
}
