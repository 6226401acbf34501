import type { V1Pod } from '@kubernetes/client-node';
import type { FilterResult, NodeInfo } from './scheduler-filters';
import { nodeAllocatable, podRequests } from './pod-resources';

const SCORED = ['cpu', 'memory'] as const;

/** kube's LeastAllocated: mean over cpu and memory of (allocatable - requested after placing) / allocatable, 0-100. */
export function scoreLeastAllocated(pod: V1Pod, info: NodeInfo, fit: FilterResult): number {
  const alloc = nodeAllocatable(info.node);
  const req = podRequests(pod);
  let total = 0;
  for (const r of SCORED) {
    const cap = alloc[r] ?? 0;
    if (cap <= 0) continue;
    const after = (fit.used[r] ?? 0) + (req[r] ?? 0);
    total += Math.max(0, ((cap - after) * 100) / cap);
  }
  return total / SCORED.length;
}

/** The feasible node with the best score; ties go to the node with fewer pods, then by name. */
export function pickNode(pod: V1Pod, feasible: { info: NodeInfo; fit: FilterResult }[]): string | undefined {
  let best: { name: string; score: number; pods: number } | undefined;
  for (const { info, fit } of feasible) {
    const cand = { name: fit.node, score: scoreLeastAllocated(pod, info, fit), pods: fit.used.pods ?? 0 };
    if (!best || cand.score > best.score + 1e-9 || (Math.abs(cand.score - best.score) <= 1e-9 && (cand.pods < best.pods || (cand.pods === best.pods && cand.name < best.name)))) best = cand;
  }
  return best?.name;
}
