import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { checkInterPodAffinity, type PlacedPod } from './inter-pod-affinity';
import { matchesNodeSelectorAndAffinity } from './node-affinity';
import { insufficientResources, nodeAllocatable, podRequests, sumRequests, type ResourceList } from './pod-resources';
import { findUntoleratedTaint, isBlockedByCordon } from './taints';
import { volumeNodeReasons, type VolumeCache } from './scheduler-volumes';

export const REASON_UNSCHEDULABLE_NODE = 'node(s) were unschedulable';
export const REASON_NODE_NAME = "node(s) didn't match the requested node name";
export const REASON_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";

/** What the filters know about one node: the node and the non-terminal pods on it (bound or assumed). */
export interface NodeInfo {
  node: V1Node;
  pods: V1Pod[];
}

export interface FilterResult {
  node: string;
  /** Empty when the pod fits; otherwise the reasons of the first failing filter, kube's wording. */
  reasons: string[];
  /** Resources in use on the node before this pod (for scoring). */
  used: ResourceList;
}

/** kube's default filter order; the first failing filter gives a node's reasons. */
export function filterNode(pod: V1Pod, info: NodeInfo, all: NodeInfo[], volumes?: VolumeCache): FilterResult {
  const name = info.node.metadata?.name ?? '';
  const used = sumRequests(info.pods);
  const fail = (reasons: string[]) => ({ node: name, reasons, used });
  if (isBlockedByCordon(pod, info.node)) return fail([REASON_UNSCHEDULABLE_NODE]);
  if (pod.spec?.nodeName && pod.spec.nodeName !== name) return fail([REASON_NODE_NAME]);
  const taint = findUntoleratedTaint(pod, info.node);
  if (taint) return fail([`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`]);
  if (!matchesNodeSelectorAndAffinity(pod, info.node)) return fail([REASON_NODE_AFFINITY]);
  const volumeReasons = volumes ? volumeNodeReasons(pod, info.node, volumes) : [];
  if (volumeReasons.length > 0) return fail(volumeReasons);
  const insufficient = insufficientResources(podRequests(pod), used, nodeAllocatable(info.node));
  if (insufficient.length > 0) return fail(insufficient);
  const placed: PlacedPod[] = all.flatMap((i) => i.pods.map((p) => ({ pod: p, node: i.node })));
  const affinity = checkInterPodAffinity(pod, info.node, placed);
  if (affinity) return fail([affinity]);
  return { node: name, reasons: [], used };
}

/**
 * kube's FitError message: "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient memory."
 * (reason counts sorted as strings, like kube), or "no nodes available to schedule pods".
 */
export function formatUnschedulableMessage(results: FilterResult[]): string {
  if (results.length === 0) return 'no nodes available to schedule pods';
  const counts = new Map<string, number>();
  for (const r of results) for (const reason of r.reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const parts = [...counts].map(([reason, n]) => `${n} ${reason}`).sort();
  return `0/${results.length} nodes are available: ${parts.join(', ')}.`;
}
