import { describe, expect, it } from 'vitest';
import {
  newVM, newVMI, withCondition, withPhase, withRequests, withRunStrategy, withVMIDeleted,
} from '../../../lib/kubevirt/test-builders';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { computeVMStatus, type VMStatusInputs } from './compute-vm-status';
import { isRestartRequired } from './restart-required';

const now = new Date('2026-01-01T00:00:00Z');
const base: VMStatusInputs = { now, random: 0, restartRequired: false, creationExpected: false, deletionExpected: false };
const ready = withCondition({ type: 'Ready', status: 'True', lastTransitionTime: '2025-12-31T00:00:00Z' });
const withGeneration = (g: string) => (vmi: VirtualMachineInstance) => { vmi.metadata.annotations = { 'kubevirt.io/vm-generation': g }; };

describe('computeVMStatus: printableStatus, created, ready', () => {
  it.each<[string, VirtualMachine, VirtualMachineInstance | undefined, Partial<VMStatusInputs>, object]>([
    ['stopped VM', newVM(withRunStrategy('Halted')), undefined, {}, { printableStatus: 'Stopped' }],
    ['VMI expected', newVM(), undefined, { creationExpected: true }, { printableStatus: 'Starting' }],
    ['VMI pending', newVM(), newVMI(withPhase('Pending')), {}, { printableStatus: 'Starting', created: true }],
    ['VMI running and ready', newVM(), newVMI(withPhase('Running'), ready), {}, { printableStatus: 'Running', created: true, ready: true }],
    ['VMI paused', newVM(), newVMI(withPhase('Running'), withCondition({ type: 'Paused', status: 'True' })), {}, { printableStatus: 'Paused' }],
    ['VMI being deleted', newVM(withRunStrategy('Halted')), newVMI(withPhase('Running'), withVMIDeleted), {}, { printableStatus: 'Stopping' }],
    ['VMI deletion expected', newVM(withRunStrategy('Halted')), newVMI(withPhase('Running')), { deletionExpected: true }, { printableStatus: 'Stopping' }],
    ['failed early under Always', newVM(), newVMI(withPhase('Failed')), {}, { printableStatus: 'CrashLoopBackOff', startFailure: { consecutiveFailCount: 1 } }],
    ['VM being deleted', newVM((v) => { v.metadata.deletionTimestamp = '2026-01-01T00:00:00Z'; }), undefined, {}, { printableStatus: 'Terminating' }],
  ])('%s', (_n, vm, vmi, inputs, want) => {
    expect(computeVMStatus(vm, vmi, { ...base, ...inputs })).toMatchObject(want);
  });

  it('omits created and ready when there is no VMI', () => {
    const s = computeVMStatus(newVM(), undefined, base);
    expect(s.created).toBeUndefined();
    expect(s.ready).toBeUndefined();
  });
});

describe('computeVMStatus: conditions', () => {
  const types = (vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, inputs: Partial<VMStatusInputs> = {}) =>
    computeVMStatus(vm, vmi, { ...base, ...inputs }).conditions?.map((c) => `${c.type}=${c.status}${c.reason ? `/${c.reason}` : ''}`);

  it.each<[string, VirtualMachine, VirtualMachineInstance | undefined, Partial<VMStatusInputs>, string[]]>([
    ['no VMI', newVM(), undefined, {}, ['Ready=False/VMINotExists']],
    ['VMI without Ready', newVM(), newVMI(withPhase('Pending')), {}, ['Ready=False/VMIConditionMissing']],
    ['VMI conditions copied', newVM(), newVMI(ready, withCondition({ type: 'LiveMigratable', status: 'True' })), {}, ['Ready=True', 'LiveMigratable=True']],
    ['sync error', newVM(), undefined, { syncError: { reason: 'FailedCreate', message: 'boom' } }, ['Ready=False/VMINotExists', 'Failure=True/FailedCreate']],
    ['restart required', newVM(), newVMI(ready), { restartRequired: 'Reduction of CPU socket count requires a restart' }, ['Ready=True', 'RestartRequired=True']],
  ])('%s', (_n, vm, vmi, inputs, want) => expect(types(vm, vmi, inputs)).toEqual(want));

  it("RestartRequired carries virt-controller's reason as its message, as KubeVirt's condition does", () => {
    const c = computeVMStatus(newVM(), newVMI(ready), { ...base, restartRequired: "CPU sockets updated in template spec to a value higher than what's available" }).conditions;
    expect(c?.find((x) => x.type === 'RestartRequired')).toMatchObject({ status: 'True', message: "CPU sockets updated in template spec to a value higher than what's available" });
  });
  it('drops conditions the VMI no longer has', () => {
    const vm = newVM((v) => { v.status = { conditions: [{ type: 'Paused', status: 'True' }, { type: 'Failure', status: 'True' }] }; });
    expect(types(vm, newVMI(ready))).toEqual(['Ready=True']);
  });
  it('keeps lastTransitionTime while a condition does not change', () => {
    const vm = newVM((v) => { v.status = { conditions: [{ type: 'Ready', status: 'False', reason: 'VMINotExists', lastTransitionTime: '2025-01-01T00:00:00Z' }] }; });
    expect(computeVMStatus(vm, undefined, base).conditions?.[0].lastTransitionTime).toBe('2025-01-01T00:00:00Z');
  });
});

describe('computeVMStatus: requests, generations, runStrategy', () => {
  it('trims a fulfilled Start request', () => {
    const s = computeVMStatus(newVM(withRunStrategy('Manual'), withRequests({ action: 'Start' })), newVMI(withPhase('Scheduling')), base);
    expect(s.stateChangeRequests).toBeUndefined();
  });
  it('records generations and the strategy once a VMI exists', () => {
    const vm = newVM(withRunStrategy('Manual'), (v) => { v.metadata.generation = 4; });
    expect(computeVMStatus(vm, newVMI(withGeneration('3')), base)).toMatchObject({ observedGeneration: 3, desiredGeneration: 4, runStrategy: 'Manual' });
  });
  it('keeps the last strategy while no VMI exists', () => {
    const vm = newVM(withRunStrategy('RerunOnFailure'), (v) => { v.status = { runStrategy: 'Always' }; });
    expect(computeVMStatus(vm, undefined, base).runStrategy).toBe('Always');
  });
});

describe('isRestartRequired', () => {
  const vm = newVM();
  it.each<[string, VirtualMachine, boolean]>([
    ['same template spec', newVM(), false],
    ['run strategy changed only', newVM(withRunStrategy('Manual')), false],
    ['template labels changed only', newVM((v) => { v.spec.template.metadata = { labels: { a: 'b' } }; }), false],
    ['memory changed', newVM((v) => { v.spec.template.spec.domain.memory = { guest: '1Gi' }; }), true],
  ])('%s → %s', (_n, current, want) => {
    expect(isRestartRequired(current.spec, { spec: vm.spec })).toBe(want);
  });
  it('is false when the start spec is unknown', () => expect(isRestartRequired(vm.spec, undefined)).toBe(false));
});
