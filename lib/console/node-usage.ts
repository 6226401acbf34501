/** A node's capacity and what the VMs on it asked for (launcher Pod requests), for the overview and nodes page. */
import { parseQuantity } from '../kubevirt';

export interface PodRequestLike {
  spec?: { nodeName?: string; containers?: { resources?: { requests?: Record<string, string | number> } }[] };
  status?: { phase?: string };
}

export interface NodeUsage { cpuCapacity: number; memoryCapacity: number; cpuRequested: number; memoryRequested: number; pods: number }

export function computeNodeUsage(node: { metadata: { name?: string }; status?: { allocatable?: Record<string, string>; capacity?: Record<string, string> } }, pods: PodRequestLike[]): NodeUsage {
  const cap = node.status?.allocatable ?? node.status?.capacity ?? {};
  const mine = pods.filter((p) => p.spec?.nodeName === node.metadata.name && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
  let cpu = 0;
  let mem = 0;
  for (const p of mine) for (const c of p.spec?.containers ?? []) {
    cpu += parseQuantity(c.resources?.requests?.cpu) ?? 0;
    mem += parseQuantity(c.resources?.requests?.memory) ?? 0;
  }
  return { cpuCapacity: parseQuantity(cap.cpu) ?? 0, memoryCapacity: parseQuantity(cap.memory) ?? 0, cpuRequested: cpu, memoryRequested: mem, pods: mine.length };
}
