/**
 * The KubeVirt CR's status as KubeVirt's operator leaves it once everything runs: phase Deployed,
 * the observed and target versions, observedGeneration, and Available=True, Progressing=False,
 * Degraded=False. Pure: what the status should be, and whether the current one already is.
 */
import type { Condition } from '../../../lib/kubevirt/meta';
import type { KubeVirt, KubeVirtStatus } from '../../../lib/kubevirt/kubevirt-cr';

const READY_REASON = 'AllComponentsReady';
const READY_MESSAGE = 'All components are ready.';

export function desiredKubeVirtStatus(cr: KubeVirt, version: string, now: string): KubeVirtStatus {
  const existing = new Map((cr.status?.conditions ?? []).map((c) => [c.type, c]));
  const condition = (type: string, status: 'True' | 'False'): Condition => {
    const cur = existing.get(type);
    const same = cur?.status === status && cur.reason === READY_REASON;
    return { type, status, reason: READY_REASON, message: READY_MESSAGE, lastProbeTime: same ? cur.lastProbeTime : now, lastTransitionTime: same ? cur.lastTransitionTime : now };
  };
  return {
    ...cr.status,
    phase: 'Deployed',
    observedKubeVirtVersion: version,
    targetKubeVirtVersion: version,
    observedGeneration: cr.metadata?.generation,
    defaultArchitecture: 'amd64',
    conditions: [condition('Available', 'True'), condition('Progressing', 'False'), condition('Degraded', 'False')],
  };
}

/** True when the status already says what desiredKubeVirtStatus would write (no patch needed). */
export function statusIsCurrent(cr: KubeVirt, version: string): boolean {
  const s = cr.status;
  if (s?.phase !== 'Deployed' || s.observedKubeVirtVersion !== version || s.observedGeneration !== cr.metadata?.generation) return false;
  const want: Record<string, string> = { Available: 'True', Progressing: 'False', Degraded: 'False' };
  return Object.entries(want).every(([type, status]) => s.conditions?.some((c) => c.type === type && c.status === status));
}
