import { describe, expect, it } from 'vitest';
import { newVMI, withStatus } from '../vmi/testing-builders';
import { computeMigrationStatus, type MigrationStatusInputs } from './compute-migration-status';
import { FailureMessage } from './constants';
import {
  deleting, handedOff, inPhase, newVMIM, onNode, podFailed, podRunning, podTerminating, runningVMI, targetPod, withUID,
} from './testing-builders';

const now = new Date('2026-01-01T00:02:00Z');
const base = newVMIM();
const pod = (...o: Parameters<typeof targetPod>[2][]) => targetPod(runningVMI(), base, ...o);
const ready = pod(onNode('node-2'), podRunning());

type Row = [string, ReturnType<typeof newVMIM>, Omit<MigrationStatusInputs, 'now'>, string, string | undefined];

const rows: Row[] = [
  ['a new VMIM becomes Pending', base, { vmi: runningVMI() }, 'Pending', undefined],
  ['another migration owns the VMI', base, { vmi: runningVMI(), otherOwner: newVMIM(withUID('other')) }, 'Failed', FailureMessage.notEligible],
  ['VMI missing', newVMIM(inPhase('Pending')), {}, 'Failed', FailureMessage.vmiMissing],
  ['VMI final', newVMIM(inPhase('Running')), { vmi: newVMI(withStatus({ phase: 'Failed' })) }, 'Failed', FailureMessage.vmiFinal],
  ['Pending waits for its target Pod', newVMIM(inPhase('Pending')), { vmi: runningVMI() }, 'Pending', undefined],
  ['target Pod created → Scheduling', newVMIM(inPhase('Pending')), { vmi: runningVMI(), targetPod: pod() }, 'Scheduling', undefined],
  ['bound but not running stays Scheduling', newVMIM(inPhase('Scheduling')), { vmi: runningVMI(), targetPod: pod(onNode('node-2')) }, 'Scheduling', undefined],
  ['target running → Scheduled', newVMIM(inPhase('Scheduling')), { vmi: runningVMI(), targetPod: ready }, 'Scheduled', undefined],
  ['hand-off seen → PreparingTarget', newVMIM(inPhase('Scheduled')), { vmi: runningVMI('node-1', handedOff(base)), targetPod: ready }, 'PreparingTarget', undefined],
  ['target address → TargetReady', newVMIM(inPhase('PreparingTarget')), { vmi: runningVMI('node-1', handedOff(base, { targetNodeAddress: '127.0.0.1' })), targetPod: ready }, 'TargetReady', undefined],
  ['source started → Running', newVMIM(inPhase('TargetReady')), { vmi: runningVMI('node-1', handedOff(base, { targetNodeAddress: 'a', startTimestamp: 't' })), targetPod: ready }, 'Running', undefined],
  ['completed but target not in charge yet stays Running', newVMIM(inPhase('Running')), { vmi: runningVMI('node-1', handedOff(base, { startTimestamp: 't', completed: true })), targetPod: ready }, 'Running', undefined],
  ['completed and target in charge → Succeeded', newVMIM(inPhase('Running')), { vmi: runningVMI('node-2', handedOff(base, { startTimestamp: 't', completed: true })), targetPod: ready }, 'Succeeded', undefined],
  ['a fast migration walks every phase in one call', newVMIM(inPhase('Scheduled')), { vmi: runningVMI('node-2', handedOff(base, { targetNodeAddress: 'a', startTimestamp: 't', completed: true })), targetPod: ready }, 'Succeeded', undefined],
  ['source reported failure', newVMIM(inPhase('Running')), { vmi: runningVMI('node-1', handedOff(base, { startTimestamp: 't', completed: true, failed: true, failureReason: 'boom' })), targetPod: ready }, 'Failed', 'boom'],
  ['aborted by the source → canceled', newVMIM(inPhase('Running'), deleting()), { vmi: runningVMI('node-1', handedOff(base, { failed: true, completed: true, abortStatus: 'Succeeded' })), targetPod: ready }, 'Failed', FailureMessage.canceled],
  ['deleted before hand-off → canceled', newVMIM(inPhase('Scheduling'), deleting()), { vmi: runningVMI(), targetPod: pod() }, 'Failed', FailureMessage.canceled],
  ['deleted while running waits for the abort', newVMIM(inPhase('Running'), deleting()), { vmi: runningVMI('node-1', handedOff(base, { startTimestamp: 't', abortRequested: true })), targetPod: ready }, 'Running', undefined],
  ['the target Pod going away during an abort waits for the source', newVMIM(inPhase('Running'), deleting()), { vmi: runningVMI('node-1', handedOff(base, { startTimestamp: 't', abortRequested: true, abortStatus: 'Aborting' })), targetPod: pod(onNode('node-2'), podFailed()) }, 'Running', undefined],
  ['target Pod removed', newVMIM(inPhase('Scheduling')), { vmi: runningVMI() }, 'Failed', FailureMessage.targetPodMissing],
  ['target Pod died', newVMIM(inPhase('PreparingTarget')), { vmi: runningVMI('node-1', handedOff(base)), targetPod: pod(onNode('node-2'), podFailed()) }, 'Failed', FailureMessage.targetPodDown],
  ['target Pod terminating', newVMIM(inPhase('Scheduled')), { vmi: runningVMI(), targetPod: pod(onNode('node-2'), podRunning(), podTerminating()) }, 'Failed', FailureMessage.targetPodDown],
  ['migrationState taken by another VMIM', newVMIM(inPhase('Running')), { vmi: runningVMI('node-1', handedOff(newVMIM(withUID('other')))), targetPod: ready }, 'Failed', FailureMessage.stateTaken],
  ['final stays final', newVMIM(inPhase('Succeeded')), {}, 'Succeeded', undefined],
];

describe('computeMigrationStatus', () => {
  it.each(rows)('%s', (_name, vmim, inputs, phase, failure) => {
    const got = computeMigrationStatus(vmim, { ...inputs, now });
    expect(got.status.phase).toBe(phase);
    expect(got.failure).toBe(failure);
    if (failure) expect(got.status.migrationState?.failureReason).toBe(failure);
  });

  it('stamps each phase it passes once, keeping earlier stamps', () => {
    const vmim = newVMIM(inPhase('Scheduled'));
    vmim.status!.phaseTransitionTimestamps = [{ phase: 'Scheduled', phaseTransitionTimestamp: 'earlier' }];
    const { status } = computeMigrationStatus(vmim, { vmi: runningVMI('node-1', handedOff(base, { targetNodeAddress: 'a' })), targetPod: ready, now });
    expect(status.phaseTransitionTimestamps?.map((s) => [s.phase, s.phaseTransitionTimestamp])).toEqual([
      ['Scheduled', 'earlier'], ['PreparingTarget', now.toISOString()], ['TargetReady', now.toISOString()],
    ]);
  });

  it('copies the VMI migrationState it owns into the VMIM', () => {
    const state = handedOff(base, { targetNodeAddress: 'a', startTimestamp: 's' });
    const { status } = computeMigrationStatus(newVMIM(inPhase('Running')), { vmi: runningVMI('node-1', state), targetPod: ready, now });
    expect(status.migrationState).toEqual(state);
  });

  it('keeps the failure reason it recorded when the VMI state has none yet', () => {
    const vmim = newVMIM(inPhase('Failed'));
    vmim.status!.migrationState = { migrationUid: 'mig-uid', failed: true, failureReason: FailureMessage.targetPodDown };
    const { status } = computeMigrationStatus(vmim, { vmi: runningVMI('node-1', handedOff(base, { startTimestamp: 's' })), now });
    expect(status.migrationState?.failureReason).toBe(FailureMessage.targetPodDown);
  });

  it('marks a deleted VMIM with the abort-requested condition', () => {
    const { status } = computeMigrationStatus(newVMIM(inPhase('Pending'), deleting()), { vmi: runningVMI(), now });
    expect(status.conditions).toEqual([expect.objectContaining({ type: 'migrationAbortRequested', status: 'True' })]);
  });
});
