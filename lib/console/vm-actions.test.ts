import { describe, expect, it } from 'vitest';
import { newVM, newVMI, withCondition, withPhase, withRunStrategy } from '../kubevirt/test-builders';
import type { VirtualMachineInstance } from '../kubevirt';
import { actionRequest, allowedActions, computeActionAvailability, type VMAction } from './vm-actions';

const paused = withCondition({ type: 'Paused', status: 'True', reason: 'PausedByUser' });
const notMigratable = withCondition({ type: 'LiveMigratable', status: 'False', reason: 'DisksNotLiveMigratable', message: 'cannot migrate a local disk' });
const migrating: (v: VirtualMachineInstance) => void = (v) => { v.status = { ...v.status, migrationState: { startTimestamp: '2026-01-01T00:00:00Z' } }; };

describe('allowedActions', () => {
  it.each<[string, ReturnType<typeof newVM>, VirtualMachineInstance | undefined, VMAction[]]>([
    ['halted, no VMI', newVM(withRunStrategy('Halted')), undefined, ['start', 'delete']],
    ['always, running', newVM(withRunStrategy('Always')), newVMI(withPhase('Running')), ['stop', 'forceStop', 'restart', 'pause', 'softReboot', 'migrate', 'delete']],
    ['always, paused', newVM(withRunStrategy('Always')), newVMI(withPhase('Running'), paused), ['stop', 'forceStop', 'restart', 'unpause', 'migrate', 'delete']],
    ['always, crash loop without VMI (stop ends it)', newVM(withRunStrategy('Always')), undefined, ['stop', 'delete']],
    ['always, starting', newVM(withRunStrategy('Always')), newVMI(withPhase('Scheduling')), ['stop', 'forceStop', 'restart', 'delete']],
    ['manual, stopped VMI', newVM(withRunStrategy('Manual')), newVMI(withPhase('Succeeded')), ['start', 'restart', 'delete']],
    ['rerunOnFailure, failed', newVM(withRunStrategy('RerunOnFailure')), newVMI(withPhase('Failed')), ['restart', 'delete']],
    ['running but not live-migratable', newVM(withRunStrategy('Always')), newVMI(withPhase('Running'), notMigratable), ['stop', 'forceStop', 'restart', 'pause', 'softReboot', 'delete']],
    // no pause while migrating: virt-api refuses it ("Cannot pause VM … because it is currently being migrated")
    ['already migrating', newVM(withRunStrategy('Always')), newVMI(withPhase('Running'), migrating), ['stop', 'forceStop', 'restart', 'softReboot', 'delete']],
    ['once, running', newVM(withRunStrategy('Once')), newVMI(withPhase('Running')), ['stop', 'forceStop', 'pause', 'softReboot', 'migrate', 'delete']],
  ])('%s', (_n, vm, vmi, want) => {
    expect(allowedActions(vm, vmi, { canWrite: true })).toEqual(want);
  });

  it('offers nothing to a view-only user, and says why', () => {
    const vm = newVM(withRunStrategy('Halted'));
    expect(allowedActions(vm, undefined, { canWrite: false })).toEqual([]);
    expect(computeActionAvailability(vm, undefined, { canWrite: false }).start).toMatch(/view-only/);
  });

  it('explains why migrate is off', () => {
    const a = computeActionAvailability(newVM(withRunStrategy('Always')), newVMI(withPhase('Running'), notMigratable), { canWrite: true });
    expect(a.migrate).toBe('cannot migrate a local disk');
  });
});

describe('actionRequest', () => {
  it.each<[VMAction, string, string, object | undefined]>([
    ['start', 'PUT', '/apis/subresources.kubevirt.io/v1/namespaces/ns/virtualmachines/vm-1/start', {}],
    ['forceStop', 'PUT', '/apis/subresources.kubevirt.io/v1/namespaces/ns/virtualmachines/vm-1/stop', { gracePeriod: 0 }],
    ['pause', 'PUT', '/apis/subresources.kubevirt.io/v1/namespaces/ns/virtualmachineinstances/vm-1/pause', {}],
    ['softReboot', 'PUT', '/apis/subresources.kubevirt.io/v1/namespaces/ns/virtualmachineinstances/vm-1/softreboot', {}],
    ['delete', 'DELETE', '/apis/kubevirt.io/v1/namespaces/ns/virtualmachines/vm-1', undefined],
  ])('%s', (action, method, path, body) => {
    expect(actionRequest(action, 'ns', 'vm-1')).toEqual({ method, path, body });
  });
});
