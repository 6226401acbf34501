/** PURE: set/remove VMI conditions, keeping lastTransitionTime while the status does not change. */
import type { Condition as VMICondition } from '../../lib/kubevirt';

export function setCondition(conds: VMICondition[] | undefined, next: Omit<VMICondition, 'lastTransitionTime' | 'lastProbeTime'>, now: Date): VMICondition[] {
  const list = conds ?? [];
  const old = list.find((c) => c.type === next.type);
  const lastTransitionTime = old && old.status === next.status ? old.lastTransitionTime : now.toISOString();
  const merged: VMICondition = { ...next, lastProbeTime: null, lastTransitionTime };
  if (old && old.status === merged.status && old.reason === merged.reason && old.message === merged.message) return list;
  return old ? list.map((c) => (c.type === next.type ? merged : c)) : [...list, merged];
}

export function removeCondition(conds: VMICondition[] | undefined, type: string): VMICondition[] {
  return (conds ?? []).filter((c) => c.type !== type);
}

export function findCondition(conds: VMICondition[] | undefined, type: string): VMICondition | undefined {
  return conds?.find((c) => c.type === type);
}
