import type { V1Container, V1Node, V1Pod } from '@kubernetes/client-node';
import { parseQuantity } from '../../lib/kubevirt/quantity';

export type ResourceList = Record<string, number>;

/** Resources every node has implicitly; anything else requested must be in allocatable. */
const IGNORED_UNLESS_ADVERTISED = new Set(['ephemeral-storage']);

function containerRequests(c: V1Container): ResourceList {
  const out: ResourceList = {};
  const limits = c.resources?.limits ?? {};
  const requests = c.resources?.requests ?? {};
  // kube defaults requests to limits when only limits are set
  for (const name of new Set([...Object.keys(limits), ...Object.keys(requests)])) {
    const v = parseQuantity(requests[name] ?? limits[name]);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

function addInto(sum: ResourceList, r: ResourceList): void {
  for (const [k, v] of Object.entries(r)) sum[k] = (sum[k] ?? 0) + v;
}

/** Effective pod request: max(sum of containers, largest init container) + overhead, per resource. */
export function podRequests(pod: V1Pod): ResourceList {
  const sum: ResourceList = {};
  for (const c of pod.spec?.containers ?? []) addInto(sum, containerRequests(c));
  for (const c of pod.spec?.initContainers ?? []) {
    for (const [k, v] of Object.entries(containerRequests(c))) sum[k] = Math.max(sum[k] ?? 0, v);
  }
  for (const [k, q] of Object.entries(pod.spec?.overhead ?? {})) sum[k] = (sum[k] ?? 0) + (parseQuantity(q) ?? 0);
  return sum;
}

export function nodeAllocatable(node: V1Node): ResourceList {
  const out: ResourceList = {};
  for (const [k, q] of Object.entries(node.status?.allocatable ?? node.status?.capacity ?? {})) {
    const v = parseQuantity(q);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

export function isTerminalPod(pod: V1Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** Sum of requests of the non-terminal pods on a node, plus their count under `pods`. */
export function sumRequests(pods: V1Pod[]): ResourceList {
  const sum: ResourceList = { pods: 0 };
  for (const p of pods) {
    if (isTerminalPod(p)) continue;
    addInto(sum, podRequests(p));
    sum.pods++;
  }
  return sum;
}

/** kube's NodeResourcesFit reasons ("Insufficient memory", "Too many pods") for a pod on a node. */
const rank = (name: string) => (name === 'cpu' ? 0 : name === 'memory' ? 1 : 2);

export function insufficientResources(request: ResourceList, used: ResourceList, allocatable: ResourceList): string[] {
  const reasons: string[] = [];
  if ((used.pods ?? 0) + 1 > (allocatable.pods ?? 0)) reasons.push('Too many pods');
  const names = Object.keys(request).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  for (const name of names) {
    const want = request[name];
    if (want <= 0) continue;
    if (IGNORED_UNLESS_ADVERTISED.has(name) && allocatable[name] === undefined) continue;
    const free = (allocatable[name] ?? 0) - (used[name] ?? 0);
    if (want > free + 1e-9) reasons.push(`Insufficient ${name}`);
  }
  return reasons;
}
