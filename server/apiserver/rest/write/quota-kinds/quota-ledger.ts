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

export const RESOURCE_QUOTAS = { group: '', resource: 'resourcequotas', namespaced: true };
const PODS = { group: '', resource: 'pods', namespaced: true };
const CLAIMS = { group: '', resource: 'persistentvolumeclaims', namespaced: true };
/** what only a claim's own usage answers (its count is an object count) */
const isClaimResource = (name: string) => name === 'requests.storage' || name.includes('.storageclass.storage.k8s.io/');

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

/** `count/<resource>[.<group>]` or a legacy count name → the kind it counts */
function countedKind(name: string): { group: string; resource: string } | undefined {
  const legacy = ['services', 'configmaps', 'secrets', 'persistentvolumeclaims', 'replicationcontrollers', 'resourcequotas'];
  if (legacy.includes(name)) return { group: '', resource: name };
  if (!name.startsWith('count/')) return undefined;
  const [resource, ...group] = name.slice('count/'.length).split('.');
  return { group: group.join('.'), resource };
}

const addTo = (into: Usage, from: Usage) => { for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v); };

/** what one quota's hard resources are used in the namespace now (committed objects only) */
export function committedUsage(store: Store, namespace: string, quota: Quota, now = Date.now()): Usage {
  const used: Usage = new Map([...quota.hard.keys()].map((k) => [k, 0]));
  const podsTotal: Usage = new Map();
  for (const kv of store.list(objectPrefix(PODS, namespace)).items) {
    const pod = JSON.parse(kv.value) as QuotaPod;
    if (podMatchesScopes(pod, quota.scopes)) addTo(podsTotal, podUsage(pod, now));
  }
  const claimsTotal: Usage = new Map();
  if ([...quota.hard.keys()].some(isClaimResource)) {
    for (const kv of store.list(objectPrefix(CLAIMS, namespace)).items) addTo(claimsTotal, claimUsage(JSON.parse(kv.value) as QuotaClaim));
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
