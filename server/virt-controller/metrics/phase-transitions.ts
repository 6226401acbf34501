/**
 * PURE: the samples KubeVirt's perfscale histograms take when an informer sees a VMI change phase
 * (pkg/monitoring/metrics/virt-controller perfscale metrics, in our words): the time from creation
 * to the new phase, from the previous phase to the new one, and — for a VMI being deleted that
 * reached a final phase — from the deletion request. Times come from status.phaseTransitionTimestamps,
 * so the samples say when the writer saw the phase, not when this informer heard of it.
 */
import type { VirtualMachineInstance } from '../../../lib/kubevirt';

export interface PhaseTransitionSamples {
  fromCreation?: { phase: string; seconds: number };
  sinceLastPhase?: { phase: string; lastPhase: string; seconds: number };
  fromDeletion?: { phase: string; seconds: number };
}

const FINAL = new Set(['Succeeded', 'Failed']);

const ms = (iso: string | undefined): number | undefined => {
  const t = iso === undefined ? NaN : Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
};

/** seconds from `from` to `to`; a clock skew between writers floors at 0, as KubeVirt's does */
const between = (from: number | undefined, to: number | undefined) => (from === undefined || to === undefined ? undefined : Math.max(0, (to - from) / 1000));

function phaseTime(vmi: VirtualMachineInstance, phase: string | undefined): number | undefined {
  return ms(vmi.status?.phaseTransitionTimestamps?.find((t) => t.phase === phase)?.phaseTransitionTimestamp);
}

export function phaseTransitionSamples(old: VirtualMachineInstance | undefined, cur: VirtualMachineInstance): PhaseTransitionSamples {
  const phase = cur.status?.phase;
  const lastPhase = old?.status?.phase;
  if (!old || !phase || phase === lastPhase) return {};
  const out: PhaseTransitionSamples = {};
  const at = phaseTime(cur, phase);
  const created = ms(cur.metadata.creationTimestamp);
  const fromCreation = between(created, at);
  if (fromCreation !== undefined) out.fromCreation = { phase, seconds: fromCreation };
  // an unset previous phase counts from creation
  const since = between(lastPhase ? phaseTime(cur, lastPhase) : created, at);
  if (since !== undefined) out.sinceLastPhase = { phase, lastPhase: lastPhase ?? '', seconds: since };
  if (cur.metadata.deletionTimestamp && FINAL.has(phase)) {
    const fromDeletion = between(ms(cur.metadata.deletionTimestamp), at);
    if (fromDeletion !== undefined) out.fromDeletion = { phase, seconds: fromDeletion };
  }
  return out;
}
