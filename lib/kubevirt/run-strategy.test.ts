import { describe, expect, it } from 'vitest';
import { isSetToStart, runStrategyOf, RUNNING_AND_RUN_STRATEGY_ERROR } from './run-strategy';
import { newVM, newVMI, withPhase, withRequests, withRunStrategy, withRunning } from './test-builders';
import type { VirtualMachine } from './vm-types';
import type { VirtualMachineInstance } from './vmi-types';

describe('runStrategyOf', () => {
  it.each([
    ['running: true', { running: true }, 'Always'],
    ['running: false', { running: false }, 'Halted'],
    ['neither field', {}, 'Halted'],
    ['runStrategy Manual', { runStrategy: 'Manual' }, 'Manual'],
    ['runStrategy Once', { runStrategy: 'Once' }, 'Once'],
  ] as const)('%s → %s', (_n, spec, want) => {
    expect(runStrategyOf({ spec: { template: { spec: { domain: { devices: {} } } }, ...spec } })).toEqual({ ok: true, strategy: want });
  });

  it('rejects running together with runStrategy', () => {
    const vm = newVM((v) => { v.spec.running = false; v.spec.runStrategy = 'Always'; });
    expect(runStrategyOf(vm)).toEqual({ ok: false, error: RUNNING_AND_RUN_STRATEGY_ERROR });
  });
});

describe('isSetToStart', () => {
  const vmi = newVMI(withPhase('Running'));
  const stop = withRequests({ action: 'Stop', uid: 'vmi-uid' });
  const start = withRequests({ action: 'Start' });
  it.each<[string, VirtualMachine, VirtualMachineInstance | undefined, boolean]>([
    ['Always', newVM(), undefined, true],
    ['running: true', newVM(withRunning(true)), undefined, true],
    ['Halted', newVM(withRunStrategy('Halted')), vmi, false],
    ['conflicting fields', newVM((v) => { v.spec.running = true; }), vmi, false],
    ['Manual with VMI', newVM(withRunStrategy('Manual')), vmi, true],
    ['Manual with VMI and stop request for it', newVM(withRunStrategy('Manual'), stop), vmi, false],
    ['Manual with stop request for another VMI', newVM(withRunStrategy('Manual'), withRequests({ action: 'Stop', uid: 'old' })), vmi, true],
    ['Manual without VMI', newVM(withRunStrategy('Manual')), undefined, false],
    ['Manual without VMI, start queued', newVM(withRunStrategy('Manual'), start), undefined, true],
    ['RerunOnFailure without VMI', newVM(withRunStrategy('RerunOnFailure')), undefined, true],
    ['RerunOnFailure, VMI succeeded', newVM(withRunStrategy('RerunOnFailure')), newVMI(withPhase('Succeeded')), false],
    ['RerunOnFailure, VMI failed', newVM(withRunStrategy('RerunOnFailure')), newVMI(withPhase('Failed')), true],
    ['Once without VMI', newVM(withRunStrategy('Once')), undefined, true],
    ['Once with VMI', newVM(withRunStrategy('Once')), vmi, false],
  ])('%s → %s', (_n, vm, v, want) => {
    expect(isSetToStart(vm, v)).toBe(want);
  });
});
