import { describe, expect, it } from 'vitest';
import {
  newVM, newVMI, withCondition, withPhase, withRequests, withRunStrategy, withRunning,
} from '../../../lib/kubevirt/test-builders';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { ApiError } from '../api-error';
import { planMigrate } from './migrate';
import { planRestart } from './restart';
import { planStart } from './start';
import { planStop } from './stop';
import type { Write } from './writes';
import type { MigrateOptions, RestartOptions, StartOptions, StopOptions } from './options';

type AnyOptions = StartOptions & StopOptions & RestartOptions & MigrateOptions;
type Plan = (vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, opts: AnyOptions) => Write[];
const rs = (s: VirtualMachine['spec']['runStrategy']) => newVM(withRunStrategy(s), (v) => { v.metadata.resourceVersion = '7'; });
const running = newVMI(withPhase('Running'));
const succeeded = newVMI(withPhase('Succeeded'));
const failed = newVMI(withPhase('Failed'));

/** `409 message`, or a short description of the writes (`spec:Always`, `status:Stop,Start`, `vmi`, `vmim`). */
function outcome(plan: Plan, vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, opts: AnyOptions = {}): string {
  try {
    return plan(vm, vmi, opts).map(summarize).join(' + ');
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return `${err.code} ${err.message}`;
  }
}

function summarize(w: Write): string {
  if (w.kind === 'patch-vm') return `spec:${String(w.ops.at(-1)?.value)}`;
  if (w.kind === 'patch-vm-status') {
    type Requests = { action: string; data?: object }[];
    const v = w.ops.find((o) => o.op !== 'test' && o.op !== 'remove')?.value as Requests | { stateChangeRequests: Requests };
    const reqs = Array.isArray(v) ? v : v.stateChangeRequests;
    return `status:${reqs.map((r) => r.action + (r.data ? '(paused)' : '')).join(',')}`;
  }
  if (w.kind === 'patch-vmi') return `vmi-grace:${String(w.ops.at(-1)?.value)}`;
  return 'vmim';
}

const conflictMsg = (msg: string) => `409 Operation cannot be fulfilled on virtualmachine.kubevirt.io "vm1": ${msg}`;

describe.each([
  ['start', planStart as Plan, [
    ['Always', rs('Always'), undefined, {}, conflictMsg('Always does not support manual start requests')],
    ['Once', rs('Once'), undefined, {}, conflictMsg('Once does not support manual start requests')],
    ['any strategy, VMI running', rs('Manual'), running, {}, conflictMsg('VM is already running')],
    ['VMI pending counts as running', rs('Manual'), newVMI(withPhase('Pending')), {}, conflictMsg('VM is already running')],
    ['Halted', rs('Halted'), undefined, {}, 'spec:Always'],
    ['running: false', newVM(withRunning(false)), undefined, {}, 'spec:true'],
    ['Halted, paused', rs('Halted'), undefined, { paused: true }, 'status:Start(paused)'],
    ['Manual', rs('Manual'), undefined, {}, 'status:Start'],
    ['Manual, finished VMI', rs('Manual'), succeeded, {}, 'status:Stop,Start'],
    ['RerunOnFailure, no VMI', rs('RerunOnFailure'), undefined, {}, 'status:Start'],
    ['RerunOnFailure, succeeded VMI', rs('RerunOnFailure'), succeeded, {}, 'status:Stop,Start'],
    ['RerunOnFailure, failed VMI', rs('RerunOnFailure'), failed, {}, conflictMsg('RerunOnFailure does not support starting VM from failed state')],
    ['Manual, request already queued', newVM(withRunStrategy('Manual'), withRequests({ action: 'Start' })), undefined, {}, conflictMsg('unable to complete request: stop/start already underway')],
    ['manual recovery required', newVM(withRunStrategy('Manual'), (v) => { v.status = { conditions: [{ type: 'ManualRecoveryRequired', status: 'True' }] }; }), undefined, {},
      conflictMsg('VM recovery required: Volume migration failed, leaving some volumes pointing to non-consistent targets; manual intervention is needed to reassign them to their original volumes.')],
  ]],
  ['stop', planStop as Plan, [
    ['Always, running', rs('Always'), running, {}, 'spec:Halted'],
    ['Always, no VMI (no error)', rs('Always'), undefined, {}, 'spec:Halted'],
    ['Once', rs('Once'), running, {}, 'spec:Halted'],
    ['Always, force', rs('Always'), running, { gracePeriod: 0 }, 'vmi-grace:0 + spec:Halted'],
    ['Manual, running', rs('Manual'), running, {}, 'status:Stop'],
    ['Manual, no VMI', rs('Manual'), undefined, {}, conflictMsg('VM is not running')],
    ['RerunOnFailure, final VMI', rs('RerunOnFailure'), failed, {}, conflictMsg('VM is not running')],
    ['Manual, stop replaces a queued Start', newVM(withRunStrategy('Manual'), withRequests({ action: 'Start' })), running, {}, 'status:Stop'],
    ['Halted, no VMI', rs('Halted'), undefined, {}, conflictMsg('VM is not running')],
    ['Halted, stopping without grace', rs('Halted'), running, {}, conflictMsg('Halted only supports manual stop requests with a shorter graceperiod')],
    ['Halted, stopping with a shorter grace', rs('Halted'), running, { gracePeriod: 0 }, 'vmi-grace:0 + status:Stop'],
  ]],
  ['restart', planRestart as Plan, [
    ['Always', rs('Always'), running, {}, 'status:Stop,Start'],
    ['Manual', rs('Manual'), running, {}, 'status:Stop,Start'],
    ['RerunOnFailure', rs('RerunOnFailure'), running, {}, 'status:Stop,Start'],
    ['force restart', rs('Always'), running, { gracePeriodSeconds: 0 }, 'vmi-grace:1 + status:Stop,Start'],
    ['grace > 0', rs('Always'), running, { gracePeriodSeconds: 5 }, '400 For force restart, only gracePeriod=0 is supported for now'],
    ['grace < 0', rs('Always'), running, { gracePeriodSeconds: -1 }, '400 gracePeriod has to be greater or equal to 0'],
    ['Halted', rs('Halted'), undefined, {}, conflictMsg('RunStategy Halted does not support manual restart requests')],
    ['Once', rs('Once'), running, {}, conflictMsg('RunStategy Once does not support manual restart requests')],
    ['Manual, no VMI', rs('Manual'), undefined, {}, conflictMsg('VM is not running: Halted')],
  ]],
  ['migrate', planMigrate as Plan, [
    ['running', rs('Always'), running, {}, 'vmim'],
    ['no VMI', rs('Always'), undefined, {}, '404 virtualmachineinstance.kubevirt.io "vm1" not found'],
    ['VMI pending', rs('Always'), newVMI(withPhase('Pending')), {}, conflictMsg('VM is not running')],
  ]],
] as const)('%s', (_sub, plan, cases) => {
  it.each(cases as unknown as [string, VirtualMachine, VirtualMachineInstance | undefined, object, string][])('%s → %s', (_n, vm, vmi, opts, want) => {
    expect(outcome(plan, vm, vmi, opts)).toBe(want);
  });
});

describe('optimistic concurrency', () => {
  it('tests the queued requests before replacing them', () => {
    const vm = newVM(withRunStrategy('Manual'), withRequests({ action: 'Start' }));
    const [w] = planStop(vm, running, {});
    expect(w).toEqual({ kind: 'patch-vm-status', ops: [
      { op: 'test', path: '/status/stateChangeRequests', value: [{ action: 'Start' }] },
      { op: 'replace', path: '/status/stateChangeRequests', value: [{ action: 'Stop', uid: 'vmi-uid' }] },
    ] });
  });
  it('tests the run strategy before flipping it', () => {
    expect(planStop(rs('Always'), running, {})[0]).toEqual({ kind: 'patch-vm', ops: [
      { op: 'test', path: '/spec/runStrategy', value: 'Always' }, { op: 'replace', path: '/spec/runStrategy', value: 'Halted' },
    ] });
  });
  it('clears the crash-loop record with a new request', () => {
    const vm = newVM(withRunStrategy('Manual'), (v) => { v.status = { startFailure: { consecutiveFailCount: 2 } }; });
    const write = planStart(vm, undefined, {})[0];
    expect(write.kind === 'patch-vm-status' && write.ops.at(-1)).toEqual({ op: 'remove', path: '/status/startFailure' });
  });
  it('restores the VMI grace period if the restart request cannot be queued', () => {
    const vmi = newVMI(withPhase('Running'), (v) => { v.spec.terminationGracePeriodSeconds = 30; });
    expect(planRestart(rs('Always'), vmi, { gracePeriodSeconds: 0 })[0]).toMatchObject({
      kind: 'patch-vmi', rollback: [{ op: 'test', value: 1 }, { op: 'replace', value: 30 }],
    });
  });
  it('passes addedNodeSelector to the migration', () => {
    expect(planMigrate(rs('Always'), running, { addedNodeSelector: { zone: 'a' } })[0]).toMatchObject({
      body: { metadata: { generateName: 'kubevirt-migrate-vm-' }, spec: { vmiName: 'vm1', addedNodeSelector: { zone: 'a' } } },
    });
  });
});
