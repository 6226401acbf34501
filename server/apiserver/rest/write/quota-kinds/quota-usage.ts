/**
 * PURE: what a Pod or another object counts against a ResourceQuota, as kube's quota evaluators
 * (pkg/quota/v1/evaluator/core) count it. Amounts are integers: CPU in millicores, everything
 * else in whole units (bytes, objects), so sums and comparisons are exact.
 */
import { parseQuantity } from '../../../../../lib/kubevirt/quantity';

export type Usage = Map<string, number>;

interface Resources { requests?: Record<string, unknown>; limits?: Record<string, unknown> }
interface Container { name?: string; restartPolicy?: string; resources?: Resources }
export interface QuotaPod {
  metadata?: { deletionTimestamp?: string; deletionGracePeriodSeconds?: number };
  spec?: { containers?: Container[]; initContainers?: Container[]; overhead?: Record<string, unknown>; activeDeadlineSeconds?: number };
  status?: { phase?: string };
}

/** resources counted in millis (kube's MilliValue) */
const isMilli = (name: string) => name === 'cpu' || name.endsWith('.cpu');

/** a quantity as this resource's integer amount (rounded up), undefined when malformed */
export function amountOf(name: string, q: unknown): number | undefined {
  const v = parseQuantity(q);
  if (v === undefined) return undefined;
  return Math.ceil((isMilli(name) ? v * 1000 : v) - 1e-9);
}

/** the resources a Pod's compute usage is written under */
const COMPUTE = ['cpu', 'memory', 'ephemeral-storage'] as const;

/** one container's requests and limits; an unset request defaults to the limit, as kube's defaulting does */
function containerAmounts(c: Container): { requests: Map<string, number>; limits: Map<string, number> } {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  for (const r of COMPUTE) {
    const limit = amountOf(`limits.${r}`, c.resources?.limits?.[r]);
    const request = c.resources?.requests?.[r] !== undefined ? amountOf(`requests.${r}`, c.resources.requests[r]) : limit;
    if (limit !== undefined) limits.set(r, limit);
    if (request !== undefined) requests.set(r, request);
  }
  return { requests, limits };
}

/** a list field as stored: anything but an array (a hostile body) is empty */
const list = <T>(v: T[] | undefined): T[] => (Array.isArray(v) ? v : []);

const add = (into: Map<string, number>, from: Map<string, number>) => { for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v); };
const max = (into: Map<string, number>, from: Map<string, number>) => { for (const [k, v] of from) into.set(k, Math.max(into.get(k) ?? 0, v)); };

/** kube's PodRequests/PodLimits: app containers and sidecars summed, at least the largest init container, plus overhead */
function podTotals(pod: QuotaPod, which: 'requests' | 'limits'): Map<string, number> {
  const sum = new Map<string, number>();
  for (const c of list(pod.spec?.containers)) add(sum, containerAmounts(c)[which]);
  const initMax = new Map<string, number>();
  const sidecars = new Map<string, number>();
  for (const c of list(pod.spec?.initContainers)) {
    const amounts = containerAmounts(c)[which];
    if (c.restartPolicy === 'Always') add(sidecars, amounts);
    else { const withSidecars = new Map(sidecars); add(withSidecars, amounts); max(initMax, withSidecars); }
  }
  add(sum, sidecars);
  max(sum, initMax);
  const overhead = new Map<string, number>();
  for (const r of COMPUTE) {
    const v = amountOf(r, pod.spec?.overhead?.[r]);
    if (v !== undefined && sum.has(r)) overhead.set(r, v);
  }
  add(sum, overhead);
  return sum;
}

/** kube's QuotaV1Pod: Succeeded or Failed Pods, and Pods past their deletion grace period, use nothing */
export function podCounts(pod: QuotaPod, now = Date.now()): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const del = pod.metadata?.deletionTimestamp;
  const grace = pod.metadata?.deletionGracePeriodSeconds;
  if (del && grace !== undefined && now > Date.parse(del) + grace * 1000) return false;
  return true;
}

/** a Pod's usage: pods, count/pods, requests.* (also as cpu, memory, ephemeral-storage) and limits.* */
export function podUsage(pod: QuotaPod, now = Date.now()): Usage {
  const usage: Usage = new Map();
  if (!podCounts(pod, now)) return usage;
  usage.set('pods', 1);
  usage.set('count/pods', 1);
  for (const [r, v] of podTotals(pod, 'requests')) { usage.set(`requests.${r}`, v); usage.set(r, v); }
  for (const [r, v] of podTotals(pod, 'limits')) usage.set(`limits.${r}`, v);
  return usage;
}

/** resources whose presence in a quota makes every container state them (kube's backward-compatibility rule) */
const CONSTRAINED = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];

/**
 * kube's podEvaluator.Constraints: when a quota limits cpu or memory, every container and init
 * container must make an explicit request (or limit) for it. Returns `must specify …` or undefined.
 */
export function podConstraintError(pod: QuotaPod, quotaResources: Iterable<string>): string | undefined {
  const required = new Set([...quotaResources].filter((r) => CONSTRAINED.includes(r)));
  if (required.size === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  for (const c of [...list(pod.spec?.containers), ...list(pod.spec?.initContainers)]) {
    const { requests, limits } = containerAmounts(c);
    const has = new Set<string>();
    for (const r of ['cpu', 'memory']) {
      if (requests.has(r)) { has.add(r); has.add(`requests.${r}`); }
      if (limits.has(r)) has.add(`limits.${r}`);
    }
    for (const r of required) if (!has.has(r)) missing.set(r, (missing.get(r) ?? new Set()).add(c.name ?? ''));
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

export interface QuotaClaim { spec?: { storageClassName?: string | null; resources?: { requests?: Record<string, unknown> } } }

/** kube's PVC evaluator: the claim, its storage request, and both per StorageClass (`<class>.storageclass.storage.k8s.io/…`) */
export function claimUsage(pvc: QuotaClaim): Usage {
  const usage: Usage = new Map([['persistentvolumeclaims', 1], ['count/persistentvolumeclaims', 1]]);
  const storage = amountOf('requests.storage', pvc.spec?.resources?.requests?.storage);
  if (storage !== undefined) usage.set('requests.storage', storage);
  const cls = pvc.spec?.storageClassName;
  if (cls) {
    usage.set(`${cls}.storageclass.storage.k8s.io/persistentvolumeclaims`, 1);
    if (storage !== undefined) usage.set(`${cls}.storageclass.storage.k8s.io/requests.storage`, storage);
  }
  return usage;
}

/** the object-count names an object of this kind is counted under (`count/<resource>[.<group>]`, and kube's legacy names) */
const LEGACY_COUNTS = new Set(['services', 'configmaps', 'secrets', 'persistentvolumeclaims', 'replicationcontrollers', 'resourcequotas']);
export function countNames(group: string, resource: string): string[] {
  const names = [group ? `count/${resource}.${group}` : `count/${resource}`];
  if (!group && LEGACY_COUNTS.has(resource)) names.push(resource);
  return names;
}

/** an amount as a quantity string: millicores for CPU, binary suffixes for whole Ki multiples, else the integer */
export function formatAmount(name: string, amount: number): string {
  if (isMilli(name)) return amount % 1000 === 0 ? String(amount / 1000) : `${amount}m`;
  if (amount !== 0 && amount % 1024 === 0) {
    for (const [suffix, size] of [['Ti', 2 ** 40], ['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]] as const) {
      if (amount % size === 0) return `${amount / size}${suffix}`;
    }
  }
  return String(amount);
}
