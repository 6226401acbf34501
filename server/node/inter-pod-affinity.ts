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

const requiredAnti = (p: V1Pod) => p.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
const requiredAffinity = (p: V1Pod) => p.spec?.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];

/** The pod's anti-affinity: no selected pod may run in the candidate node's topology domain. */
function violatesOwnAntiAffinity(pod: V1Pod, node: V1Node, live: PlacedPod[]): boolean {
  const ns = pod.metadata?.namespace;
  return requiredAnti(pod).some((term) => live.some((p) => sameTopology(term.topologyKey, node, p.node) && termSelects(term, ns, p.pod)));
}

/** Symmetry: a pod already in the domain whose anti-affinity selects the incoming pod. */
function violatesExistingAntiAffinity(pod: V1Pod, node: V1Node, live: PlacedPod[]): boolean {
  return live.some((p) => requiredAnti(p.pod).some((t) => sameTopology(t.topologyKey, node, p.node) && termSelects(t, p.pod.metadata?.namespace, pod)));
}

/** The pod's affinity: each term needs a selected pod in the domain (or the pod is the first of its group). */
function violatesAffinity(pod: V1Pod, node: V1Node, live: PlacedPod[]): boolean {
  const ns = pod.metadata?.namespace;
  return requiredAffinity(pod).some((term) => {
    const inDomain = live.some((p) => sameTopology(term.topologyKey, node, p.node) && termSelects(term, ns, p.pod));
    if (inDomain) return false;
    const noneAnywhere = !live.some((p) => termSelects(term, ns, p.pod));
    const firstOfGroup = noneAnywhere && termSelects(term, ns, pod) && node.metadata?.labels?.[term.topologyKey] !== undefined;
    return !firstOfGroup;
  });
}

/**
 * kube's InterPodAffinity filter for required terms: the pod's anti-affinity, existing pods'
 * anti-affinity towards it (symmetry), and the pod's affinity. Returns the failure reason or undefined.
 */
export function checkInterPodAffinity(pod: V1Pod, node: V1Node, placed: PlacedPod[]): string | undefined {
  const live = placed.filter((p) => !isTerminalPod(p.pod) && p.pod.metadata?.uid !== pod.metadata?.uid);
  if (violatesOwnAntiAffinity(pod, node, live)) return REASON_ANTI_AFFINITY;
  if (violatesExistingAntiAffinity(pod, node, live)) return REASON_EXISTING_ANTI_AFFINITY;
  if (violatesAffinity(pod, node, live)) return REASON_AFFINITY;
  return undefined;
}
