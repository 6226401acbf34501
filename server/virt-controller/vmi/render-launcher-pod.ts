/**
 * PURE: VMI → the launcher Pod that will run it (KubeVirt's services/template.go, reduced to what we run).
 */
import type { V1Affinity, V1Container, V1Pod, V1Toleration } from '@kubernetes/client-node';
import {
  Annotation, APP_VIRT_LAUNCHER, COMPUTE_CONTAINER, DEFAULT_GRACE_PERIOD_SECONDS, DEFAULT_LAUNCHER_IMAGE, Label,
  GUEST_CONSOLE_LOG_COMMAND, GUEST_CONSOLE_LOG_CONTAINER, LAUNCHER_COMMAND, LAUNCHER_GRACE_PADDING_SECONDS,
} from './constants';
import { renderLauncherResources } from './launcher-pod-resources';
import type { AutoLimits } from './auto-resource-limits';
import { renderNodeVolumes, withClaimMounts, withNodeMounts, withPodAddressEnv } from './render-node-mounts';
import { launcherClaimVolumes } from './claim-volumes';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import { READINESS_GATE_UNPAUSED } from '../../../lib/kubevirt/labels';
import { encodePodImages, type PodImage } from '../../images/pod-images';

export interface RenderOptions {
  /**
   * Cluster mode: the compute container's image. Setting it also mounts the node's pod dir and
   * image store from the host (render-node-mounts.ts) and drops the containerDisk pull annotation
   * (no kubelet pulls them there); embedded mode leaves it unset.
   */
  launcherImage?: string;
  /** the KubeVirt CR's `developerConfiguration.cpuAllocationRatio`, read per Pod (default 10: 100m per vCPU) */
  cpuAllocationRatio?: () => number | undefined;
  /** the KubeVirt CR's `additionalGuestMemoryOverheadRatio` (admitted: ≥ 1), read per Pod; multiplies the memory overhead */
  overheadRatio?: () => number | undefined;
  /** the KubeVirt CR's `developerConfiguration.memoryOvercommit` (percent), read per Pod: the guest part of the memory request is guest × 100 / it */
  memoryOvercommit?: () => number | undefined;
  /** the limits a namespace's ResourceQuota asks for (KubeVirt's automatic resource limits) */
  autoLimits?: (vmi: VirtualMachineInstance) => AutoLimits;
}

/** Grace the launcher gets after SIGTERM: the VMI's own grace plus padding for QEMU teardown. */
export function launcherGracePeriodSeconds(vmi: VirtualMachineInstance): number {
  return (vmi.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_PERIOD_SECONDS) + LAUNCHER_GRACE_PADDING_SECONDS;
}

function renderLabels(vmi: VirtualMachineInstance): Record<string, string> {
  const name = vmi.metadata.name ?? '';
  return {
    ...(vmi.metadata.labels ?? {}),
    [Label.App]: APP_VIRT_LAUNCHER,
    [Label.CreatedBy]: vmi.metadata.uid ?? '',
    [Label.VMName]: vmi.spec?.hostname ?? name,
    [Label.VMIID]: name,
  };
}

/** KubeVirt's rule: the guest's serial output is logged unless the VMI turns it (or its serial console) off. */
export function isSerialConsoleLogged(vmi: VirtualMachineInstance): boolean {
  const devices = vmi.spec?.domain?.devices;
  return devices?.autoattachSerialConsole !== false && devices?.logSerialConsole !== false;
}

/**
 * The `guest-console-log` container (`kubectl logs … -c guest-console-log`). KubeVirt runs virt-tail
 * in it; the embedded kubelet serves the file the launcher writes and runs no process for it, so its
 * small resources only keep the Pod's limits whole (one unlimited container would lift them).
 */
function renderConsoleLogContainer(image: string, compute: V1Container): V1Container {
  const small = { cpu: '5m', memory: '35M' };
  // limits equal to requests: a Guaranteed launcher Pod stays Guaranteed
  const limited = compute.resources?.limits !== undefined;
  return { name: GUEST_CONSOLE_LOG_CONTAINER, image, command: GUEST_CONSOLE_LOG_COMMAND, resources: { requests: small, ...(limited ? { limits: small } : {}) } };
}

function renderScheduling(vmi: VirtualMachineInstance): Partial<NonNullable<V1Pod['spec']>> {
  const s = vmi.spec ?? {};
  const out: Partial<NonNullable<V1Pod['spec']>> = { nodeSelector: { ...(s.nodeSelector ?? {}), [Label.Schedulable]: 'true' } };
  // KubeVirt: dedicated CPUs only where the kubelet's static CPU manager runs
  if (s.domain?.cpu?.dedicatedCpuPlacement) out.nodeSelector!.cpumanager = 'true';
  if (s.affinity) out.affinity = s.affinity as V1Affinity;
  if (s.tolerations) out.tolerations = s.tolerations as V1Toleration[];
  if (s.schedulerName) out.schedulerName = s.schedulerName;
  if (s.priorityClassName) out.priorityClassName = s.priorityClassName;
  if (s.hostname) out.hostname = s.hostname;
  if (s.subdomain) out.subdomain = s.subdomain;
  return out;
}

/**
 * The containerDisk images the node pulls before the launcher starts (a kernelBoot container's
 * image still comes from the local store only: its layout is not /disk/).
 */
export function podImagesOf(vmi: VirtualMachineInstance): PodImage[] {
  return (vmi.spec?.volumes ?? []).flatMap((v) => (v.containerDisk?.image ? [v.containerDisk] : []))
    .map((c) => (c.imagePullPolicy ? { image: c.image, imagePullPolicy: c.imagePullPolicy } : { image: c.image }));
}

/** KubeVirt adds each containerDisk's imagePullSecret to the Pod's imagePullSecrets. */
function pullSecretsOf(vmi: VirtualMachineInstance): { name: string }[] {
  const names = (vmi.spec?.volumes ?? []).map((v) => v.containerDisk?.imagePullSecret);
  return [...new Set(names.filter((n): n is string => Boolean(n)))].map((name) => ({ name }));
}

/** a usable ratio, else undefined (KubeVirt takes only a positive integer; anything else keeps its default) */
function validRatio(r: number | undefined): number | undefined {
  return typeof r === 'number' && Number.isInteger(r) && r > 0 ? r : undefined;
}

export function renderLauncherPod(vmi: VirtualMachineInstance, opts: RenderOptions = {}): V1Pod {
  const name = vmi.metadata.name ?? '';
  const resources = renderLauncherResources(vmi, {
    cpuAllocationRatio: validRatio(opts.cpuAllocationRatio?.()), auto: opts.autoLimits?.(vmi), overheadRatio: opts.overheadRatio?.(), memoryOvercommit: validRatio(opts.memoryOvercommit?.()),
  });
  const claims = launcherClaimVolumes(vmi);
  // cluster mode: a real kubelet never reads the annotation, and a process kubelet standing in for
  // one (kv up --bare) must not either — the launcher finds the disk in the node's image store
  const images = opts.launcherImage ? [] : podImagesOf(vmi);
  const pullSecrets = pullSecretsOf(vmi);
  const compute: V1Container = {
    name: COMPUTE_CONTAINER,
    image: opts.launcherImage ?? DEFAULT_LAUNCHER_IMAGE,
    command: [...LAUNCHER_COMMAND],
    resources: { requests: resources.requests, ...(resources.limits ? { limits: resources.limits } : {}) },
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `virt-launcher-${name}-`,
      namespace: vmi.metadata.namespace,
      labels: renderLabels(vmi),
      annotations: {
        [Annotation.Domain]: name,
        [Annotation.DefaultContainer]: COMPUTE_CONTAINER,
        [Annotation.MemoryOverheadBytes]: String(resources.overheadBytes),
        ...(images.length ? { [Annotation.ContainerDisks]: encodePodImages(images) } : {}),
      },
      ownerReferences: [{
        apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', name, uid: vmi.metadata.uid ?? '',
        controller: true, blockOwnerDeletion: true,
      }],
    },
    spec: {
      restartPolicy: 'Never',
      // as KubeVirt's: the launcher talks to virt-handler, never to the API server
      automountServiceAccountToken: false,
      terminationGracePeriodSeconds: launcherGracePeriodSeconds(vmi),
      // virt-handler sets it True while the guest runs unpaused, so Services route only to a running guest
      readinessGates: [{ conditionType: READINESS_GATE_UNPAUSED }],
      ...renderScheduling(vmi),
      ...(pullSecrets.length ? { imagePullSecrets: pullSecrets } : {}),
      containers: opts.launcherImage
        ? [withClaimMounts(withNodeMounts(compute), claims)]
        : [withPodAddressEnv(compute), ...(isSerialConsoleLogged(vmi) ? [renderConsoleLogContainer(DEFAULT_LAUNCHER_IMAGE, compute)] : [])],
      ...(opts.launcherImage || claims.length ? { volumes: [...(opts.launcherImage ? renderNodeVolumes() : []), ...claims] } : {}),
    },
  };
}
