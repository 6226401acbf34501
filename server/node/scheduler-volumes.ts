/**
 * PURE: kube's VolumeBinding filter, reduced to our volumes: a Pod's claims must exist and not be
 * going; a claim bound to a node-local volume pins the Pod to that node; an unbound claim of an
 * Immediate class holds the Pod back; an unbound WaitForFirstConsumer claim lets the scheduler pick
 * the node, which it then writes on the claim (`volume.kubernetes.io/selected-node`).
 */
import type { V1Node, V1PersistentVolume, V1PersistentVolumeClaim, V1Pod, V1StorageClass } from '@kubernetes/client-node';
import { matchesNodeSelectorTerms } from './node-affinity';

export const REASON_VOLUME_NODE_AFFINITY = 'node(s) had volume node affinity conflict';
export const REASON_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';
export const SELECTED_NODE_ANNOTATION = 'volume.kubernetes.io/selected-node';

export interface VolumeCache {
  claim(namespace: string, name: string): V1PersistentVolumeClaim | undefined;
  volume(name: string): V1PersistentVolume | undefined;
  storageClass(name: string): V1StorageClass | undefined;
}

function claimNames(pod: V1Pod): string[] {
  return (pod.spec?.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim?.claimName ? [v.persistentVolumeClaim.claimName] : []));
}

function claimsOf(pod: V1Pod, cache: VolumeCache): { name: string; pvc?: V1PersistentVolumeClaim }[] {
  const ns = pod.metadata?.namespace ?? 'default';
  return claimNames(pod).map((name) => ({ name, pvc: cache.claim(ns, name) }));
}

const isWaitForFirstConsumer = (pvc: V1PersistentVolumeClaim, cache: VolumeCache) =>
  cache.storageClass(pvc.spec?.storageClassName ?? '')?.volumeBindingMode === 'WaitForFirstConsumer';

/** Reasons no node can take the Pod (kube's PreFilter): a missing or deleted claim, an unbound Immediate one. */
export function podVolumeProblem(pod: V1Pod, cache: VolumeCache): string | undefined {
  for (const { name, pvc } of claimsOf(pod, cache)) {
    if (!pvc) return `persistentvolumeclaim "${name}" not found`;
    if (pvc.metadata?.deletionTimestamp) return `persistentvolumeclaim "${name}" is being deleted`;
    if (!pvc.spec?.volumeName && !isWaitForFirstConsumer(pvc, cache)) return REASON_UNBOUND_IMMEDIATE;
  }
  return undefined;
}

/** Per node: the bound volumes' node affinity must admit it. */
export function volumeNodeReasons(pod: V1Pod, node: V1Node, cache: VolumeCache): string[] {
  for (const { pvc } of claimsOf(pod, cache)) {
    const pv = pvc?.spec?.volumeName ? cache.volume(pvc.spec.volumeName) : undefined;
    const terms = pv?.spec?.nodeAffinity?.required?.nodeSelectorTerms;
    if (terms?.length && !matchesNodeSelectorTerms(terms, node)) return [REASON_VOLUME_NODE_AFFINITY];
  }
  return [];
}

/** The unbound WaitForFirstConsumer claims the chosen node must be written on. */
export function claimsAwaitingNode(pod: V1Pod, cache: VolumeCache): V1PersistentVolumeClaim[] {
  return claimsOf(pod, cache).flatMap(({ pvc }) => (pvc && !pvc.spec?.volumeName && isWaitForFirstConsumer(pvc, cache) ? [pvc] : []));
}
