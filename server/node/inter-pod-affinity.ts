import type { V1Node, V1Pod, V1PodAffinityTerm } from '@kubernetes/client-node';
import { matchesLabelSelector } from './label-selector-match';
import { isTerminalPod } from './pod-resources';

export const REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
export const REASON_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";
export const REASON_AFFINITY = "node(s) didn't match pod affinity rules";

export interface PlacedPod {
  pod: V1Pod;
  node: V1Node;
}

/** Does `term` (declared by a pod in `ownerNamespace`) select `target`? namespaceSelector {} means all namespaces. */
function termSelects(term: V1PodAffinityTerm, ownerNamespace: string | undefined, target: V1Pod): boolean {
  const ns = target.metadata?.namespace;
  const allNamespaces = term.namespaceSelector !== undefined && Object.keys(term.namespaceSelector).length === 0;
  const namespaces = term.namespaces?.length ? term.namespaces : [ownerNamespace];
  if (!allNamespaces && !namespaces.includes(ns)) return false;
  return matchesLabelSelector(term.labelSelector, target.metadata?.labels);
}

function sameTopology(key: string, a: V1Node, b: V1Node): boolean {
  const va = a.metadata?.labels?.[key];
  return va !== undefined && va === b.metadata?.labels?.[key];
}

/**
 * kube's InterPodAffinity filter for required terms: the pod's anti-affinity, existing pods'
 * anti-affinity towards it (symmetry), and the pod's affinity. Returns the failure reason or undefined.
 */
export function checkInterPodAffinity(pod: V1Pod, node: V1Node, placed: PlacedPod[]): string | undefined {
  const live = placed.filter((p) => !isTerminalPod(p.pod) && p.pod.metadata?.uid !== pod.metadata?.uid);
  const ns = pod.metadata?.namespace;
  const anti = pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  for (const term of anti) {
    if (live.some((p) => sameTopology(term.topologyKey, node, p.node) && termSelects(term, ns, p.pod))) return REASON_ANTI_AFFINITY;
  }
  for (const p of live) {
    const terms = p.pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    if (terms.some((t) => sameTopology(t.topologyKey, node, p.node) && termSelects(t, p.pod.metadata?.namespace, pod))) return REASON_EXISTING_ANTI_AFFINITY;
  }
  const affinity = pod.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  for (const term of affinity) {
    const inDomain = live.some((p) => sameTopology(term.topologyKey, node, p.node) && termSelects(term, ns, p.pod));
    // kube lets the first pod of a group in when nothing matches anywhere yet and it matches its own term
    const firstOfGroup = !live.some((p) => termSelects(term, ns, p.pod)) && termSelects(term, ns, pod) && node.metadata?.labels?.[term.topologyKey] !== undefined;
    if (!inDomain && !firstOfGroup) return REASON_AFFINITY;
  }
  return undefined;
}
