import { describe, expect, it } from 'vitest';
import { computeMigrationStatus } from './compute-migration-status';
import { withQuotaRejection } from './quota-rejection';
import { inPhase, newVMIM, runningVMI, targetPod } from './testing-builders';

const now = new Date('2026-01-01T00:02:00Z');
const QUOTA_ERROR = 'pods "virt-launcher-vmi-abcde" is forbidden: exceeded quota: mem, requested: memory=300Mi, used: memory=300Mi, limited: memory=500Mi';
const rejected = { type: 'migrationRejectedByResourceQuota', status: 'True', lastProbeTime: now.toISOString(), lastTransitionTime: null };

describe('migrationRejectedByResourceQuota (KubeVirt migration controller)', () => {
  it('a Pending VMIM whose target Pod a quota refused gets the condition, True, without reason or message', () => {
    expect(withQuotaRejection(newVMIM(inPhase('Pending')), QUOTA_ERROR, now)?.conditions).toEqual([rejected]);
  });

  it.each([
    ['another create error', newVMIM(inPhase('Pending')), 'pods "x" is forbidden: unable to create new content in namespace ns because it is being terminated'],
    ['not Pending', newVMIM(inPhase('Scheduling')), QUOTA_ERROR],
    ['already set (the first probe time stays)', (() => { const m = newVMIM(inPhase('Pending')); m.status!.conditions = [rejected as never]; return m; })(), QUOTA_ERROR],
  ])('nothing to add: %s', (_, vmim, message) => {
    expect(withQuotaRejection(vmim, message, now)).toBeUndefined();
  });

  it('the condition stays while Pending and goes once the target Pod exists (Scheduling)', () => {
    const vmim = newVMIM(inPhase('Pending'));
    vmim.status!.conditions = [rejected as never];
    expect(computeMigrationStatus(vmim, { vmi: runningVMI(), now }).status.conditions).toEqual([rejected]);
    const next = computeMigrationStatus(vmim, { vmi: runningVMI(), targetPod: targetPod(runningVMI(), vmim), now }).status;
    expect(next.phase).toBe('Scheduling');
    expect(next.conditions).toEqual([]);
  });
});
