/** PURE: the statuses the snapshot controller writes, KubeVirt's shape and words. */
import type { Condition, VMRestore, VMSnapshot } from './snapshot-types';

function cond(type: string, status: boolean, reason: string, now: string): Condition {
  return { type, status: status ? 'True' : 'False', reason, lastTransitionTime: now, lastProbeTime: null };
}

export function snapshotInProgress(s: VMSnapshot, now: string, sourceUID: string | undefined, reason = 'Source locked and operation in progress'): VMSnapshot['status'] {
  return { ...s.status, phase: 'InProgress', readyToUse: false, sourceUID, conditions: [cond('Progressing', true, reason, now), cond('Ready', false, 'Not ready', now)] };
}

export function snapshotSucceeded(s: VMSnapshot, now: string, r: { sourceUID?: string; content: string; indications: string[]; volumes: string[]; excluded: string[] }): VMSnapshot['status'] {
  return {
    phase: 'Succeeded', readyToUse: true, sourceUID: r.sourceUID, creationTime: now, virtualMachineSnapshotContentName: r.content,
    indications: r.indications, snapshotVolumes: { includedVolumes: r.volumes, excludedVolumes: r.excluded },
    conditions: [cond('Progressing', false, 'Operation complete', now), cond('Ready', true, 'Operation complete', now)],
  };
}

export function snapshotFailed(s: VMSnapshot, now: string, message: string): VMSnapshot['status'] {
  return { ...s.status, phase: 'Failed', readyToUse: false, error: { message, time: now }, conditions: [cond('Progressing', false, 'Snapshot failed', now), cond('Ready', false, message, now)] };
}

export function restoreRefused(r: VMRestore, now: string, message: string): VMRestore['status'] {
  const c = (type: string) => ({ ...cond(type, false, 'Error', now), message });
  return { ...r.status, complete: false, conditions: [c('Progressing'), c('Ready')] };
}

export function restoreComplete(r: VMRestore, now: string, restores: NonNullable<VMRestore['status']>['restores']): VMRestore['status'] {
  return { complete: true, restoreTime: now, restores, conditions: [cond('Progressing', false, 'Operation complete', now), cond('Ready', true, 'Operation complete', now)] };
}

/** waiting on the target, or its stop under way (KubeVirt writes the text as the reason) */
export function restoreWaiting(r: VMRestore, now: string, text: string): VMRestore['status'] {
  const c = (type: string) => ({ ...cond(type, false, text, now), message: text });
  return { ...r.status, complete: false, conditions: [c('Progressing'), c('Ready')] };
}

/** final: a Failure condition, and the restore is never retried */
export function restoreFailed(r: VMRestore, now: string, text: string): VMRestore['status'] {
  const c = (type: string, status: boolean) => ({ ...cond(type, status, text, now), message: text });
  return { ...r.status, complete: false, conditions: [c('Progressing', false), c('Ready', false), c('Failure', true)] };
}

export const restoreHasFailed = (r: VMRestore): boolean => r.status?.conditions?.some((x) => x.type === 'Failure' && x.status === 'True') ?? false;
