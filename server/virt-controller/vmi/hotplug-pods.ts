/**
 * PURE: KubeVirt's hot-plug attachment Pods, one per hot-plugged claim of a running VMI: pinned to
 * the VMI's node, they make the kubelet bind and link the claim there; virt-handler hands it to the
 * launcher. And the volumeStatus entries the controller owns for them (Pending → AttachedToNode;
 * virt-handler takes them to Ready once the guest has the disk).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import type { VMIVolumeStatus } from '../../../lib/kubevirt/vmi-types';
import { Label } from './constants';
import { claimVolumes, type ClaimLookup, type ClaimVolume } from './claim-volumes';

export const HOTPLUG_APP = 'hotplug-disk';
export const HOTPLUG_IMAGE = 'kubevirt-ts/hotplug-disk:latest';
export const HOTPLUG_VOLUME_LABEL = 'kubevirt.io/hotplug-volume';

export const HotplugPhase = { Pending: 'Pending', AttachedToNode: 'AttachedToNode', Ready: 'Ready' } as const;

export const hotplugClaims = (vmi: VirtualMachineInstance): ClaimVolume[] => claimVolumes(vmi).filter((c) => c.hotpluggable);

/** DNS-1123, at most 63 characters */
export function attachmentPodName(vmi: VirtualMachineInstance, volume: string): string {
  const base = `hp-volume-${vmi.metadata.name}-${volume}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
  return base.length <= 63 ? base : `${base.slice(0, 54)}-${(vmi.metadata.uid ?? '').slice(0, 8)}`.replace(/-+$/, '');
}

export function renderAttachmentPod(vmi: VirtualMachineInstance, claim: ClaimVolume): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: attachmentPodName(vmi, claim.volume),
      namespace: vmi.metadata.namespace,
      labels: { [Label.App]: HOTPLUG_APP, [Label.CreatedBy]: vmi.metadata.uid ?? '', [HOTPLUG_VOLUME_LABEL]: claim.volume },
      ownerReferences: [{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', name: vmi.metadata.name ?? '', uid: vmi.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 0,
      nodeSelector: { 'kubernetes.io/hostname': vmi.status?.nodeName ?? '' },
      tolerations: [{ operator: 'Exists' }],
      containers: [{ name: 'hotplug-disk', image: HOTPLUG_IMAGE, command: ['kv', 'hotplug-disk'], resources: { requests: { cpu: '10m', memory: '2Mi' } } }],
      volumes: [{ name: claim.volume, persistentVolumeClaim: { claimName: claim.claimName, ...(claim.readOnly ? { readOnly: true } : {}) } }],
    },
  };
}

/** Which attachment Pods to create (claims ready, Pod missing) and delete (volume gone from the spec). */
export function planAttachmentPods(vmi: VirtualMachineInstance, pods: V1Pod[], lookup: ClaimLookup): { create: ClaimVolume[]; remove: V1Pod[] } {
  const ns = vmi.metadata.namespace ?? 'default';
  const running = vmi.status?.phase === 'Running' && !vmi.metadata.deletionTimestamp;
  const wanted = running ? hotplugClaims(vmi) : [];
  const byVolume = new Map(pods.map((p) => [p.metadata?.labels?.[HOTPLUG_VOLUME_LABEL] ?? '', p]));
  const create = wanted.filter((c) => {
    if (byVolume.has(c.volume) || !lookup.claim(ns, c.claimName)) return false;
    const dv = c.dataVolume ? lookup.dataVolume(ns, c.claimName) : undefined;
    return !dv || dv.status?.phase === 'Succeeded';
  });
  const keep = new Set(wanted.map((c) => c.volume));
  const remove = pods.filter((p) => !keep.has(p.metadata?.labels?.[HOTPLUG_VOLUME_LABEL] ?? '') && !p.metadata?.deletionTimestamp);
  return { create, remove };
}

/** The controller's part of volumeStatus for hot-plugged volumes (Ready and target are virt-handler's). */
export function withHotplugVolumeStatus(current: VMIVolumeStatus[] | undefined, vmi: VirtualMachineInstance, pods: V1Pod[]): VMIVolumeStatus[] | undefined {
  const byVolume = new Map(pods.map((p) => [p.metadata?.labels?.[HOTPLUG_VOLUME_LABEL] ?? '', p]));
  const wanted = new Set(hotplugClaims(vmi).map((c) => c.volume));
  const out: VMIVolumeStatus[] = [];
  for (const s of current ?? []) {
    // a removed volume's entry stays while the guest still has the disk (virt-handler drops it after detaching)
    if (s.hotplugVolume && !wanted.has(s.name) && s.phase !== HotplugPhase.Ready) continue;
    out.push(s);
  }
  for (const c of hotplugClaims(vmi)) {
    const pod = byVolume.get(c.volume);
    const i = out.findIndex((s) => s.name === c.volume);
    const prior = i >= 0 ? out[i] : { name: c.volume, target: '' };
    const attached = pod?.status?.phase === 'Running';
    const next: VMIVolumeStatus = prior.phase === HotplugPhase.Ready && attached ? prior : {
      ...prior,
      phase: attached ? HotplugPhase.AttachedToNode : HotplugPhase.Pending,
      reason: attached ? 'SuccessfulCreate' : 'PVCNotReady',
      message: attached ? `Created hotplug attachment pod ${pod!.metadata?.name}, for volume ${c.volume}` : `waiting for claim ${c.claimName} to be attached`,
      ...(pod ? { hotplugVolume: { attachPodName: pod.metadata?.name, attachPodUID: pod.metadata?.uid } } : {}),
    };
    if (i >= 0) out[i] = next;
    else out.push(next);
  }
  return out.length ? out : undefined;
}
