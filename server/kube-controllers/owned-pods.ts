/**
 * Which Pods a controller owns (kube's ControllerRefManager): its controller reference's UID, or
 * — for an orphan whose labels the selector matches — adoption; an owned Pod the selector no
 * longer matches is released. A controller being deleted adopts nothing.
 */
import type { V1LabelSelector, V1OwnerReference, V1Pod } from '@kubernetes/client-node';
import { selectorMatches, type LabelSelector } from '../../lib/kubevirt';

interface Owner { metadata?: { uid?: string; name?: string; deletionTimestamp?: unknown }; spec?: { selector?: V1LabelSelector } }

export interface Claim<T> { owned: T[]; adopt: T[]; release: T[] }

export function controllerRef(obj: { metadata?: { ownerReferences?: V1OwnerReference[] } }): V1OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller);
}

export function ownerReference(kind: string, owner: { metadata?: { name?: string; uid?: string } }): V1OwnerReference {
  return { apiVersion: 'apps/v1', kind, name: owner.metadata!.name!, uid: owner.metadata!.uid!, controller: true, blockOwnerDeletion: true };
}

export function claimObjects<T extends { metadata?: { labels?: Record<string, string>; ownerReferences?: V1OwnerReference[]; deletionTimestamp?: unknown } }>(owner: Owner, candidates: T[]): Claim<T> {
  const claim: Claim<T> = { owned: [], adopt: [], release: [] };
  const selector = owner.spec?.selector as LabelSelector | undefined;
  const ownerGone = Boolean(owner.metadata?.deletionTimestamp);
  for (const obj of candidates) {
    const ref = controllerRef(obj);
    const matches = selectorMatches(selector, obj.metadata?.labels);
    if (ref) {
      if (ref.uid !== owner.metadata?.uid) continue;
      if (matches || ownerGone) claim.owned.push(obj);
      else claim.release.push(obj);
    } else if (matches && !ownerGone && !obj.metadata?.deletionTimestamp) {
      claim.adopt.push(obj);
    }
  }
  return claim;
}

const phaseRank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
const ready = (p: V1Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const restarts = (p: V1Pod) => (p.status?.containerStatuses ?? []).reduce((n, s) => n + (s.restartCount ?? 0), 0);
const created = (p: V1Pod) => new Date((p.metadata?.creationTimestamp as unknown as string | undefined) ?? 0).getTime();

/** controller.ActivePods ordering: the Pods to delete first come first */
export function deletionOrder(a: V1Pod, b: V1Pod): number {
  const assigned = Number(Boolean(a.spec?.nodeName)) - Number(Boolean(b.spec?.nodeName));
  if (assigned) return assigned;
  const phase = (phaseRank[a.status?.phase ?? 'Pending'] ?? 0) - (phaseRank[b.status?.phase ?? 'Pending'] ?? 0);
  if (phase) return phase;
  const r = Number(ready(a)) - Number(ready(b));
  if (r) return r;
  const rs = restarts(b) - restarts(a);
  if (rs) return rs;
  return created(b) - created(a);
}
