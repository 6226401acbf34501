import { describe, expect, it } from 'vitest';
import { newVM, newVMI, withCondition, withPhase } from '../../../lib/kubevirt/test-builders';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { isUrgentVMIUpdate, isUrgentVMUpdate } from './urgent-change';

const vm = (f: (v: VirtualMachine) => void = () => {}) => { const v = newVM(); v.metadata.generation = 1; v.metadata.resourceVersion = '1'; f(v); return v; };

describe('isUrgentVMUpdate', () => {
  it.each<[string, (v: VirtualMachine) => void, boolean]>([
    ['a spec change (start: runStrategy Always)', (v) => { v.metadata.generation = 2; v.spec.runStrategy = 'Always'; }, true],
    ['a start request (stateChangeRequests)', (v) => { v.status = { ...v.status, stateChangeRequests: [{ action: 'Start' }] }; }, true],
    ['a delete', (v) => { v.metadata.deletionTimestamp = '2026-01-01T00:00:00Z'; }, true],
    ['our own status write', (v) => { v.metadata.resourceVersion = '2'; v.status = { printableStatus: 'Stopped' }; }, false],
    ['our own finalizer', (v) => { v.metadata.resourceVersion = '2'; v.metadata.finalizers = ['kubevirt.io/virtualMachineControllerFinalize']; }, false],
  ])('%s → urgent %s', (_name, change, urgent) => {
    expect(isUrgentVMUpdate(vm(), vm(change))).toBe(urgent);
  });
});

describe('isUrgentVMIUpdate', () => {
  const heartbeat = (v: VirtualMachineInstance) => { v.metadata.resourceVersion = '9'; v.status = { ...v.status, conditions: v.status?.conditions?.map((c) => ({ ...c, lastProbeTime: 'later' })) }; };
  it.each<[string, VirtualMachineInstance, (v: VirtualMachineInstance) => void, boolean]>([
    ['phase Scheduled → Running', newVMI(withPhase('Scheduled')), (v) => { v.status!.phase = 'Running'; }, true],
    ['paused', newVMI(withPhase('Running')), (v) => withCondition({ type: 'Paused', status: 'True' })(v), true],
    ['deleted', newVMI(withPhase('Running')), (v) => { v.metadata.deletionTimestamp = '2026-01-01T00:00:00Z'; }, true],
    ['a probe time only', newVMI(withPhase('Running'), withCondition({ type: 'Ready', status: 'True' })), heartbeat, false],
  ])('%s → urgent %s', (_name, before, change, urgent) => {
    const after = structuredClone(before);
    change(after);
    expect(isUrgentVMIUpdate(before, after)).toBe(urgent);
  });
});
