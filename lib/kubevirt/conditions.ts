/** Reading conditions and phases; small pure predicates shared by UI and server. */
import type { Condition, ConditionStatus } from './meta';
import { MigrationPhase, VMIPhase } from './enums';
import type { VirtualMachineInstance } from './vmi-types';
import type { VirtualMachineInstanceMigration } from './migration-types';

interface WithConditions { status?: { conditions?: Condition[] } }

export function findCondition(obj: WithConditions | undefined, type: string): Condition | undefined {
  return obj?.status?.conditions?.find((c) => c.type === type);
}

/** A condition list with `next` set, keeping lastTransitionTime while the status does not change; the same list when nothing changed. */
export function setCondition(conds: Condition[] | undefined, next: Omit<Condition, 'lastTransitionTime' | 'lastProbeTime'>, now: Date): Condition[] {
  const list = conds ?? [];
  const old = list.find((c) => c.type === next.type);
  const lastTransitionTime = old && old.status === next.status ? old.lastTransitionTime : now.toISOString();
  const merged: Condition = { ...next, lastProbeTime: null, lastTransitionTime };
  if (old && old.status === merged.status && old.reason === merged.reason && old.message === merged.message) return list;
  return old ? list.map((c) => (c.type === next.type ? merged : c)) : [...list, merged];
}

export function removeCondition(conds: Condition[] | undefined, type: string): Condition[] {
  return (conds ?? []).filter((c) => c.type !== type);
}

export function hasCondition(
  obj: WithConditions | undefined,
  type: string,
  status: ConditionStatus = 'True',
  reason?: string,
): boolean {
  const c = findCondition(obj, type);
  return !!c && c.status === status && (reason === undefined || c.reason === reason);
}

/** A VMI phase after which nothing changes (`Succeeded` or `Failed`). */
export function isVMIFinal(vmi: VirtualMachineInstance): boolean {
  const p = vmi.status?.phase;
  return p === VMIPhase.Succeeded || p === VMIPhase.Failed;
}

export function isMigrationFinal(vmim: VirtualMachineInstanceMigration): boolean {
  const p = vmim.status?.phase;
  return p === MigrationPhase.Succeeded || p === MigrationPhase.Failed;
}

/** KubeVirt's `IsMigrating`: a start timestamp at or before now and no end timestamp at or before now. */
export function isVMIMigrating(vmi: VirtualMachineInstance, now: Date): boolean {
  const state = vmi.status?.migrationState;
  if (!state) return false;
  const t = now.getTime();
  const started = atOrBefore(state.startTimestamp, t);
  const ended = atOrBefore(state.endTimestamp, t);
  return started && !ended;
}

function atOrBefore(ts: string | undefined, t: number): boolean {
  if (!ts) return false;
  const ms = Date.parse(ts);
  return Number.isFinite(ms) && ms <= t;
}
