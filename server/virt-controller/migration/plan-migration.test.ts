import { describe, expect, it } from 'vitest';
import { newPod, onNode, podRunning, podUnschedulable } from '../vmi/testing-builders';
import { DEFAULT_MIGRATION_SETTINGS } from './constants';
import { planMigration, type PlanInputs } from './plan-migration';
import { deleting, handedOff, inPhase, newVMIM, runningVMI, targetPod } from './testing-builders';

const now = new Date('2026-01-01T00:20:00Z');
const withFinalizer = (m: ReturnType<typeof newVMIM>) => { m.metadata.finalizers = ['kubevirt.io/migrationJobFinalize']; };
const base = newVMIM(withFinalizer);
const vmi = runningVMI();
const ready = targetPod(vmi, base, onNode('node-2'), podRunning());
const srcPod = newPod(vmi, onNode('node-1'), podRunning(), (p) => { p.metadata!.uid = 'src-uid'; p.metadata!.name = 'virt-launcher-testvmi-src'; });
const laterTarget = newPod(vmi, onNode('node-1'), (p) => { p.metadata!.uid = 'later'; p.metadata!.name = 'virt-launcher-testvmi-later'; });
const allowed = () => ({ allowed: true as const });

function plan(vmim = base, over: Partial<PlanInputs> = {}) {
  if (!vmim.metadata.deletionTimestamp && !vmim.metadata.finalizers && !/Succeeded|Failed/.test(vmim.status?.phase ?? '')) withFinalizer(vmim);
  const inputs: PlanInputs = { status: vmim.status ?? {}, vmi, sourcePods: [srcPod], throttle: allowed, settings: DEFAULT_MIGRATION_SETTINGS, now, ...over };
  return planMigration(vmim, inputs).map((a) => a.kind);
}

describe('planMigration', () => {
  it.each([
    ['Pending creates the target Pod', newVMIM(inPhase('Pending')), {}, ['createTargetPod']],
    ['Pending waits while throttled', newVMIM(inPhase('Pending')), { throttle: () => ({ allowed: false as const, why: 'x', retryAfterMs: 3000 }) }, ['requeueAfter']],
    ['Pending with a target Pod does not create another', newVMIM(inPhase('Pending')), { targetPod: ready }, []],
    ['Pending for a VMI that is not Running waits', newVMIM(inPhase('Pending')), { vmi: runningVMI('node-1', undefined, { phase: 'Scheduled' }) }, []],
    ['Pending while two Pods are active waits', newVMIM(inPhase('Pending')), { vmi: runningVMI('node-1', undefined, { activePods: { a: 'node-1', b: 'node-2' } }) }, ['requeueAfter']],
    ['Scheduled hands off', newVMIM(inPhase('Scheduled')), { targetPod: ready }, ['handOff']],
    ['Scheduled after hand-off does nothing', newVMIM(inPhase('Scheduled')), { targetPod: ready, vmi: runningVMI('node-1', handedOff(base)) }, []],
    ['deleted while Running asks the source to abort', newVMIM(inPhase('Running'), deleting()), { targetPod: ready, vmi: runningVMI('node-1', handedOff(base, { startTimestamp: 's' })) }, ['requestAbort']],
    ['abort asked once', newVMIM(inPhase('Running'), deleting()), { targetPod: ready, vmi: runningVMI('node-1', handedOff(base, { startTimestamp: 's', abortRequested: true })) }, []],
    ['Failed deletes the live target Pod and drops the finalizer', newVMIM(inPhase('Failed'), (m) => { m.metadata.finalizers = ['kubevirt.io/migrationJobFinalize']; }), { status: { phase: 'Failed' }, targetPod: ready }, ['deleteTargetPod', 'removeFinalizer']],
    ['Failed before the source started marks the VMI state failed', newVMIM(inPhase('Failed')), { status: { phase: 'Failed' }, vmi: runningVMI('node-1', handedOff(base)) }, ['markVMIStateFailed']],
    ['Failed after the source started leaves the VMI state to the source', newVMIM(inPhase('Failed')), { status: { phase: 'Failed' }, vmi: runningVMI('node-1', handedOff(base, { startTimestamp: 's' })) }, []],
    ['Succeeded leaves a later migration\'s target Pod on the old source node alone', newVMIM(inPhase('Succeeded')), { status: { phase: 'Succeeded' }, vmi: runningVMI('node-2', handedOff(base, { completed: true })), sourcePods: [laterTarget] }, []],
    ['Succeeded deletes the source Pod', newVMIM(inPhase('Succeeded')), { status: { phase: 'Succeeded' }, vmi: runningVMI('node-2', handedOff(base, { completed: true })), targetPod: ready }, ['deleteSourcePod']],
  ] as [string, ReturnType<typeof newVMIM>, Partial<PlanInputs>, string[]][])('%s', (_n, vmim, over, want) => {
    expect(plan(vmim, { status: vmim.status, ...over })).toEqual(want);
  });

  it('adds the finalizer the webhook did not', () => {
    const bare = newVMIM(inPhase('Pending'));
    expect(planMigration(bare, { status: bare.status!, vmi, sourcePods: [], throttle: allowed, settings: DEFAULT_MIGRATION_SETTINGS, now }).map((a) => a.kind)).toEqual(['addFinalizer']);
  });

  it('deletes a target Pod unschedulable for 5 minutes', () => {
    const stuck = targetPod(vmi, base, podUnschedulable('0/2 nodes are available'), (p) => { p.status!.conditions![0].lastTransitionTime = new Date('2026-01-01T00:14:00Z'); });
    expect(plan(newVMIM(inPhase('Scheduling')), { status: { phase: 'Scheduling' }, targetPod: stuck })).toEqual(['deleteTargetPod']);
  });
});
