/**
 * PURE: the containerDisk images a launcher Pod needs, as virt-controller writes them on the Pod
 * (annotation `kubevirt-ts.io/container-disks`) and the kubelet reads them before it starts the
 * launcher. KubeVirt renders one container per containerDisk, which its kubelet pulls; ours runs a
 * single process per Pod, so the list travels in an annotation.
 */
export interface PodImage { image: string; imagePullPolicy?: string }

export function encodePodImages(images: PodImage[]): string {
  return JSON.stringify(images);
}

/** [] when absent or unreadable. */
export function decodePodImages(value: string | undefined): PodImage[] {
  if (!value) return [];
  try {
    const list = JSON.parse(value) as unknown;
    if (!Array.isArray(list)) return [];
    return list.filter((x): x is PodImage => typeof (x as PodImage)?.image === 'string')
      .map((x) => (typeof x.imagePullPolicy === 'string' ? { image: x.image, imagePullPolicy: x.imagePullPolicy } : { image: x.image }));
  } catch {
    return [];
  }
}
