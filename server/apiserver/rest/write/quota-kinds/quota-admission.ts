/**
 * kube's ResourceQuota admission plugin on create: a Pod must state the cpu/memory a quota
 * limits, and a create whose usage would take any covering quota past its hard limit is a 403
 * (`exceeded quota: …`). Usage is the store's committed objects plus admitted creates not yet
 * committed, and the check reserves the create's usage in the same synchronous step. The
 * namespace's Pods (and claims) are listed once per create, however many quotas cover it.
 */
import type { Store } from '../../../store/types';
import { StatusError } from '../../status-error';
import { exceededMessage } from './quota-check';
import { committedUsage, namespaceObjects, namespaceQuotas, reserve, reservedUsage } from './quota-ledger';
import { podMatchesScopes } from './quota-scopes';
import { claimUsage, countNames, podConstraintError, podUsage, type QuotaClaim, type QuotaPod, type Usage } from './quota-usage';

type Obj = Record<string, unknown>;
const NOTHING = () => undefined;

/** apierrors.NewForbidden: `<resource> "<name>" is forbidden: <why>` */
function quotaForbidden(resource: string, name: string, why: string): StatusError {
  return new StatusError(403, 'Forbidden', `${resource} "${name}" is forbidden: ${why}`, { name, kind: resource });
}

export function admitQuotaCreate(store: Store, input: { group: string; resource: string; namespace?: string; object: Obj; dryRun: boolean }): () => void {
  const { group, resource, namespace, object } = input;
  if (!namespace) return NOTHING;
  const quotas = namespaceQuotas(store, namespace);
  if (quotas.length === 0) return NOTHING;
  const isPod = group === '' && resource === 'pods';
  const pod = isPod ? (object as QuotaPod) : undefined;
  const isClaim = group === '' && resource === 'persistentvolumeclaims';
  const requested: Usage = pod ? podUsage(pod) : isClaim ? claimUsage(object as QuotaClaim) : new Map(countNames(group, resource).map((n) => [n, 1]));
  const name = String((object.metadata as Obj | undefined)?.name ?? '');
  const qualified = group ? `${resource}.${group}` : resource;
  const objects = namespaceObjects(store, namespace);
  for (const { quota } of quotas) {
    if (quota.scopes.length && (!pod || !podMatchesScopes(pod, quota.scopes))) continue;
    if (pod) {
      const missing = podConstraintError(pod, quota.hard.keys());
      if (missing) throw quotaForbidden(qualified, name, `failed quota: ${quota.name}: ${missing}`);
    }
    if (![...requested.keys()].some((r) => quota.hard.has(r))) continue;
    const used = committedUsage(store, namespace, quota, objects);
    for (const [k, v] of reservedUsage(store, namespace, quota)) used.set(k, (used.get(k) ?? 0) + v);
    const exceeded = exceededMessage(quota, requested, used);
    if (exceeded) throw quotaForbidden(qualified, name, exceeded);
  }
  return input.dryRun ? NOTHING : reserve(store, namespace, requested, pod);
}
