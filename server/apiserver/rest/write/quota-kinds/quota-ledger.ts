/**
 * A namespace's quota usage read from the store's in-memory index (Pods, and object counts),
 * plus the creates admitted but not yet committed (reservations), so that two concurrent creates
 * cannot both take the last room: the check and the reservation happen in one synchronous step.
 */
import type { Store } from '../../../store/types';
import { objectPrefix } from '../../codec/object-codec';
import { asRecord } from '../storage-kinds/field-errors';
import { amountOf, claimUsage, podUsage, type QuotaClaim, type QuotaPod, type Usage } from './quota-usage';
import { podMatchesScopes } from './quota-scopes';
import type { QuotaLimits } from './quota-check';
import { countedKind, isClaimResource } from './quota-tracked-kinds';

export const RESOURCE_QUOTAS = { group: '', resource: 'resourcequotas', namespaced: true };
const PODS = { group: '', resource: 'pods', namespaced: true };
const CLAIMS = { group: '', resource: 'persistentvolumeclaims', namespaced: true };

export interface StoredQuota {
  metadata?: { name?: string; namespace?: string };
  spec?: { hard?: Record<string, unknown>; scopes?: string[] };
  status?: { hard?: Record<string, unknown>; used?: Record<string, unknown> };
}

export interface Quota extends QuotaLimits { scopes: string[] }

export function quotaOf(q: StoredQuota): Quota {
  const hard = new Map<string, number>();
  const hardText = new Map<string, string>();
  for (const [name, v] of Object.entries(asRecord(q.spec?.hard))) {
    const amount = amountOf(name, v);
    if (amount === undefined) continue;
    hard.set(name, amount);
    hardText.set(name, String(v));
  }
  return { name: q.metadata?.name ?? '', hard, hardText, scopes: Array.isArray(q.spec?.scopes) ? q.spec.scopes.map(String) : [] };
}

export function namespaceQuotas(store: Store, namespace: string): { stored: StoredQuota; quota: Quota }[] {
  return store.list(objectPrefix(RESOURCE_QUOTAS, namespace)).items.map((kv) => {
    const stored = JSON.parse(kv.value) as StoredQuota;
    return { stored, quota: quotaOf(stored) };
  });
}

const addTo = (into: Usage, from: Usage) => { for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v); };

/**
 * A namespace's Pods and claims, each listed from the store at most once, on first need: one
 * admission (or one controller sync) shares it across every quota it checks, so a create in a
 * namespace with N quotas lists its Pods once, not N times.
 */
export interface NamespaceObjects { pods(): QuotaPod[]; claims(): QuotaClaim[] }

export function namespaceObjects(store: Store, namespace: string): NamespaceObjects {
  let pods: QuotaPod[] | undefined;
  let claims: QuotaClaim[] | undefined;
  return {
    pods: () => (pods ??= store.list(objectPrefix(PODS, namespace)).items.map((kv) => JSON.parse(kv.value) as QuotaPod)),
    claims: () => (claims ??= store.list(objectPrefix(CLAIMS, namespace)).items.map((kv) => JSON.parse(kv.value) as QuotaClaim)),
  };
}

/** what one quota's hard resources are used in the namespace now (committed objects only) */
export function committedUsage(store: Store, namespace: string, quota: Quota, objects = namespaceObjects(store, namespace), now = Date.now()): Usage {
  const used: Usage = new Map([...quota.hard.keys()].map((k) => [k, 0]));
  const podsTotal: Usage = new Map();
  for (const pod of objects.pods()) {
    if (podMatchesScopes(pod, quota.scopes)) addTo(podsTotal, podUsage(pod, now));
  }
  const claimsTotal: Usage = new Map();
  if ([...quota.hard.keys()].some(isClaimResource)) {
    for (const claim of objects.claims()) addTo(claimsTotal, claimUsage(claim));
  }
  for (const name of quota.hard.keys()) {
    const kind = countedKind(name);
    if (podsTotal.has(name)) used.set(name, podsTotal.get(name)!);
    else if (isClaimResource(name)) used.set(name, claimsTotal.get(name) ?? 0);
    else if (kind && !(kind.group === '' && kind.resource === 'pods')) used.set(name, store.count(objectPrefix({ ...kind, namespaced: true }, namespace)));
  }
  return used;
}

interface Reservation { namespace: string; scopesPod?: QuotaPod; usage: Usage }
const reservations = new WeakMap<Store, Set<Reservation>>();

/** usage reserved by admitted, not yet committed creates that this quota covers */
export function reservedUsage(store: Store, namespace: string, quota: Quota): Usage {
  const total: Usage = new Map();
  for (const r of reservations.get(store) ?? []) {
    if (r.namespace !== namespace) continue;
    if (quota.scopes.length && (!r.scopesPod || !podMatchesScopes(r.scopesPod, quota.scopes))) continue;
    addTo(total, r.usage);
  }
  return total;
}

/** holds `usage` against the namespace's quotas until the returned function is called */
export function reserve(store: Store, namespace: string, usage: Usage, pod?: QuotaPod): () => void {
  let set = reservations.get(store);
  if (!set) reservations.set(store, (set = new Set()));
  const r: Reservation = { namespace, scopesPod: pod, usage };
  set.add(r);
  return () => { set.delete(r); };
}
