import type { V1Node, V1NodeSelectorTerm, V1Pod } from '@kubernetes/client-node';
import { matchesNodeRequirement } from './label-selector-match';

/** A term matches when all its expressions and fields match; a term with neither matches nothing. */
function matchesTerm(term: V1NodeSelectorTerm, node: V1Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const nodeFields = { 'metadata.name': node.metadata?.name ?? '' };
  return exprs.every((r) => matchesNodeRequirement(r, node.metadata?.labels)) && fields.every((r) => r.key === 'metadata.name' && matchesNodeRequirement(r, nodeFields));
}

/** Any of the terms matches the node (required node affinity, a PersistentVolume's node affinity). */
export function matchesNodeSelectorTerms(terms: V1NodeSelectorTerm[], node: V1Node): boolean {
  return terms.some((t) => matchesTerm(t, node));
}

/** spec.nodeSelector (all labels) AND required node affinity (any term), as kube's NodeAffinity filter. */
export function matchesNodeSelectorAndAffinity(pod: V1Pod, node: V1Node): boolean {
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return matchesNodeSelectorTerms(required.nodeSelectorTerms ?? [], node);
}
