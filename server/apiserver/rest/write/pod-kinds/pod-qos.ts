/**
 * PURE: a Pod's QoS class as kube-apiserver sets `status.qosClass` at creation (kube's GetPodQOS):
 * - BestEffort: no container (init containers included) requests or limits CPU or memory;
 * - Guaranteed: every container limits both CPU and memory, and the summed requests equal the
 *   summed limits (a container's request defaults to its limit, as kube's defaulting does);
 * - Burstable: anything else.
 */
import { parseQuantity } from '../../../../../lib/kubevirt/quantity';

export type QOSClass = 'BestEffort' | 'Burstable' | 'Guaranteed';

interface Resources { requests?: Record<string, unknown>; limits?: Record<string, unknown> }
export interface PodLike { spec?: { containers?: { resources?: Resources }[]; initContainers?: { resources?: Resources }[] } }

const COMPUTE = ['cpu', 'memory'] as const;

const positive = (q: unknown): number | undefined => {
  const n = parseQuantity(q);
  return n !== undefined && n > 0 ? n : undefined;
};

export function podQOSClass(pod: PodLike): QOSClass {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let guaranteed = true;
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const found = new Set<string>();
    for (const name of COMPUTE) {
      const limit = positive(c.resources?.limits?.[name]);
      // kube defaults an unset request to the limit before this runs
      const request = c.resources?.requests?.[name] !== undefined ? positive(c.resources.requests[name]) : limit;
      if (request !== undefined) requests.set(name, (requests.get(name) ?? 0) + request);
      if (limit !== undefined) {
        found.add(name);
        limits.set(name, (limits.get(name) ?? 0) + limit);
      }
    }
    if (!COMPUTE.every((n) => found.has(n))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed && [...requests].every(([n, r]) => limits.get(n) === r) && requests.size === limits.size) return 'Guaranteed';
  return 'Burstable';
}
