/**
 * What the embedded kubelet agrees to run. It has no container runtime: a container becomes a host
 * process with the kubelet's privileges, so an arbitrary image with a command would be a shell on
 * the host for anyone who may create Pods. It runs kubevirt-ts's own image as deploy/ names it
 * (`kubevirt-ts:<tag>`, entrypoint `kv`: any `kv` command, as a container of that image would), the
 * launcher (the image virt-controller renders, command `kv launcher`) and CDI-like importer
 * (`kv importer`), and refuses everything else with the status a kubelet gives an image it cannot pull. `allowHostCommands` (kubelet tests only; `kv up` never
 * sets it) lifts the rule.
 */
import type { V1Container } from '@kubernetes/client-node';

export const LAUNCHER_IMAGE_REPOSITORY = 'kubevirt-ts/virt-launcher';
export const IMPORTER_IMAGE_REPOSITORY = 'kubevirt-ts/cdi-importer';
export const HOTPLUG_IMAGE_REPOSITORY = 'kubevirt-ts/hotplug-disk';
/** the image deploy/ installs (deploy/images/Dockerfile, entrypoint `kv`), under any registry and tag */
export const PROJECT_IMAGE_NAME = 'kubevirt-ts';
/** the images this kubelet runs, each with the one `kv` command it may run */
const RUNNABLE: Record<string, string> = { [LAUNCHER_IMAGE_REPOSITORY]: 'launcher', [IMPORTER_IMAGE_REPOSITORY]: 'importer', [HOTPLUG_IMAGE_REPOSITORY]: 'hotplug-disk' };
export const IMAGE_REFUSED_REASON = 'ErrImagePull';

export interface ImageRefusal { reason: string; message: string }

/** the image without its tag or digest */
export function repositoryOf(image: string): string {
  const at = image.indexOf('@');
  const noDigest = at >= 0 ? image.slice(0, at) : image;
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > slash ? noDigest.slice(0, colon) : noDigest;
}

/** `kubevirt-ts:<tag>`, `REGISTRY/kubevirt-ts:<tag>` or by digest: the image deploy/cluster names */
export function isProjectImage(image: string | undefined): boolean {
  const repo = repositoryOf(image ?? '');
  return repo === PROJECT_IMAGE_NAME || (repo.endsWith(`/${PROJECT_IMAGE_NAME}`) && !repo.startsWith('kubevirt-ts/'));
}

export function refuseImage(container: V1Container, allowHostCommands = false): ImageRefusal | undefined {
  if (allowHostCommands) return undefined;
  const image = container.image ?? '';
  const argv = [...(container.command ?? []), ...(container.args ?? [])];
  // the project image's entrypoint is kv: no command, or the command kv, runs `kv <args>`
  if (isProjectImage(image) && (!container.command?.length || container.command[0] === 'kv') && argv.length > 0) return undefined;
  const command = RUNNABLE[repositoryOf(image)];
  if (command && argv[0] === 'kv' && argv[1] === command) return undefined;
  return {
    reason: IMAGE_REFUSED_REASON,
    message: `image "${image}" not runnable by the embedded kubelet: it runs only ${PROJECT_IMAGE_NAME}:<tag> with a "kv" command, ${LAUNCHER_IMAGE_REPOSITORY} with the command "kv launcher", ${IMPORTER_IMAGE_REPOSITORY} with "kv importer" and ${HOTPLUG_IMAGE_REPOSITORY} with "kv hotplug-disk" (a process node has no container runtime to isolate anything else)`,
  };
}

/**
 * A launcher Pod's `guest-console-log` container: the launcher itself writes the guest's serial log
 * into the Pod dir, so the kubelet runs no process for it; it mirrors the launcher's state and its log
 * is that file (KubeVirt runs virt-tail there).
 */
export function isConsoleLogSidecar(container: V1Container): boolean {
  const argv = [...(container.command ?? []), ...(container.args ?? [])];
  return repositoryOf(container.image ?? '') === LAUNCHER_IMAGE_REPOSITORY && argv.length === 2 && argv[0] === 'kv' && argv[1] === 'guest-console-log';
}
