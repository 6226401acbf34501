import { describe, expect, it } from 'vitest';
import {
  newVM, newVMI, withPhase, withRequests, withRunStrategy, withRunning, withVMIDeleted,
} from '../../../lib/kubevirt/test-builders';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { decideRunAction, type RunAction } from './run-strategy-action';

const now = new Date('2026-01-01T00:00:00Z');
const running = newVMI(withPhase('Running'));
const failed = newVMI(withPhase('Failed'));
const succeeded = newVMI(withPhase('Succeeded'));
const deleting = newVMI(withPhase('Running'), withVMIDeleted);
const stopIt = withRequests({ action: 'Stop', uid: 'vmi-uid' });
const start = withRequests({ action: 'Start' });
const startPaused = withRequests({ action: 'Start', data: { paused: 'true' } });
const backingOff = (vm: VirtualMachine) => {
  vm.status = { ...vm.status, startFailure: { consecutiveFailCount: 1, retryAfterTimestamp: '2026-01-01T00:00:10Z' } };
};
const recoveredStrategy = (rs: VirtualMachine['spec']['runStrategy']) => (vm: VirtualMachine) => {
  vm.status = { ...vm.status, runStrategy: rs };
};

const CREATE: RunAction = { type: 'create', paused: false };
const NONE: RunAction = { type: 'none' };
const DELETE: RunAction = { type: 'delete', uid: 'vmi-uid' };

describe('decideRunAction', () => {
  it.each<[string, VirtualMachine, VirtualMachineInstance | undefined, RunAction]>([
    ['Always, no VMI → create', newVM(), undefined, CREATE],
    ['running: true is Always', newVM(withRunning(true)), undefined, CREATE],
    ['Always, running VMI → nothing', newVM(), running, NONE],
    ['Always, VMI succeeded → delete (restart)', newVM(), succeeded, DELETE],
    ['Always, VMI failed → delete (restart)', newVM(), failed, DELETE],
    ['Always, stop request for the VMI → delete (restart)', newVM(stopIt), running, DELETE],
    ['Always, VMI being deleted → wait for it', newVM(), deleting, NONE],
    ['Always, in backoff → wait', newVM(backingOff), undefined, { type: 'wait', afterMs: 10_000 }],
    ['Always, paused start queued → paused create', newVM(startPaused), undefined, { type: 'create', paused: true }],
    ['Always, manual recovery required → never start', newVM((vm) => {
      vm.status = { conditions: [{ type: 'ManualRecoveryRequired', status: 'True' }] };
    }), undefined, NONE],
    ['RerunOnFailure, fresh VM → create', newVM(withRunStrategy('RerunOnFailure')), undefined, CREATE],
    ['RerunOnFailure, stopped after success → nothing', newVM(withRunStrategy('RerunOnFailure'), recoveredStrategy('RerunOnFailure')), undefined, NONE],
    ['RerunOnFailure, start request → create', newVM(withRunStrategy('RerunOnFailure'), recoveredStrategy('RerunOnFailure'), start), undefined, CREATE],
    ['RerunOnFailure, VMI failed → delete and queue Start', newVM(withRunStrategy('RerunOnFailure')), failed, { type: 'delete-and-request-start', uid: 'vmi-uid' }],
    ['RerunOnFailure, VMI succeeded → delete, no restart', newVM(withRunStrategy('RerunOnFailure')), succeeded, DELETE],
    ['RerunOnFailure, stop request → delete', newVM(withRunStrategy('RerunOnFailure'), stopIt), running, DELETE],
    ['Manual, no VMI, no request → nothing', newVM(withRunStrategy('Manual')), undefined, NONE],
    ['Manual, start request → create', newVM(withRunStrategy('Manual'), start), undefined, CREATE],
    ['Manual, final VMI left in place', newVM(withRunStrategy('Manual')), failed, NONE],
    ['Manual, stop request → delete', newVM(withRunStrategy('Manual'), stopIt), running, DELETE],
    ['Manual, stop request for an older VMI → nothing', newVM(withRunStrategy('Manual'), withRequests({ action: 'Stop', uid: 'old' })), running, NONE],
    ['Halted, running VMI → delete', newVM(withRunStrategy('Halted')), running, DELETE],
    ['running: false is Halted', newVM(withRunning(false)), running, DELETE],
    ['Halted, final VMI → delete', newVM(withRunStrategy('Halted')), succeeded, DELETE],
    ['Halted, no VMI → nothing', newVM(withRunStrategy('Halted')), undefined, NONE],
    ['Halted, paused start queued → flip spec to running', newVM(withRunStrategy('Halted'), startPaused), undefined, { type: 'set-running' }],
    ['Once, no VMI → create', newVM(withRunStrategy('Once')), undefined, CREATE],
    ['Once, VMI failed → never restarted', newVM(withRunStrategy('Once')), failed, NONE],
    ['both running and runStrategy → invalid', newVM((vm) => { vm.spec.running = true; }), undefined, { type: 'invalid', message: 'running and runstrategy are mutually exclusive' }],
  ])('%s', (_name, vm, vmi, want) => {
    expect(decideRunAction(vm, vmi, now)).toEqual(want);
  });
});
