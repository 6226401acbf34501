import { describe, expect, it } from 'vitest';
import { newVM, newVMI, withPhase, withRunStrategy } from '../../../lib/kubevirt/test-builders';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import { backoffRemainingMs, computeStartFailure, isVMIFailedEarly, startBackoffSeconds } from './start-failure';

const now = new Date('2026-01-01T00:00:00Z');
const ranOnce = (vmi: VirtualMachineInstance) => {
  vmi.status = { ...vmi.status, phaseTransitionTimestamps: [{ phase: 'Running', phaseTransitionTimestamp: '2026-01-01T00:00:00Z' }] };
};

describe('startBackoffSeconds', () => {
  it.each([
    [1, 0, 10], [1, 0.999, 14.995], [2, 0, 40], [2, 0.5, 50], [3, 0, 90], [4, 0.99, 239.2], [5, 0, 250], [5, 0.5, 300], [9, 0, 300],
  ])('n=%i random=%f → %f s', (n, r, want) => {
    expect(startBackoffSeconds(n, r)).toBeCloseTo(want, 3);
  });
});

describe('isVMIFailedEarly', () => {
  it.each<[string, VirtualMachineInstance | undefined, boolean]>([
    ['no VMI', undefined, false],
    ['running', newVMI(withPhase('Running'), ranOnce), false],
    ['failed before running', newVMI(withPhase('Failed')), true],
    ['succeeded before running', newVMI(withPhase('Succeeded')), true],
    ['failed after running', newVMI(withPhase('Failed'), ranOnce), false],
  ])('%s → %s', (_n, vmi, want) => expect(isVMIFailedEarly(vmi)).toBe(want));
});

describe('computeStartFailure', () => {
  const inputs = { now, random: 0 };
  it('counts the first early failure and sets the retry time 10 s ahead', () => {
    expect(computeStartFailure(newVM(), newVMI(withPhase('Failed')), inputs)).toEqual({
      consecutiveFailCount: 1, lastFailedVMIUID: 'vmi-uid', retryAfterTimestamp: '2026-01-01T00:00:10Z',
    });
  });
  it('counts a VMI only once', () => {
    const vm = newVM((v) => { v.status = { startFailure: { consecutiveFailCount: 1, lastFailedVMIUID: 'vmi-uid' } }; });
    expect(computeStartFailure(vm, newVMI(withPhase('Failed')), inputs)?.consecutiveFailCount).toBe(1);
  });
  it('grows with each new failed VMI', () => {
    const vm = newVM((v) => { v.status = { startFailure: { consecutiveFailCount: 2, lastFailedVMIUID: 'old' } }; });
    expect(computeStartFailure(vm, newVMI(withPhase('Failed')), inputs)).toMatchObject({ consecutiveFailCount: 3, retryAfterTimestamp: '2026-01-01T00:01:30Z' });
  });
  it('is cleared once a VMI runs', () => {
    const vm = newVM((v) => { v.status = { startFailure: { consecutiveFailCount: 2 } }; });
    expect(computeStartFailure(vm, newVMI(withPhase('Running'), ranOnce), inputs)).toBeUndefined();
  });
  it.each(['Manual', 'Halted'] as const)('is cleared for %s', (rs) => {
    const vm = newVM(withRunStrategy(rs), (v) => { v.status = { startFailure: { consecutiveFailCount: 2 } }; });
    expect(computeStartFailure(vm, newVMI(withPhase('Failed')), inputs)).toBeUndefined();
  });
  it('keeps the record while no VMI exists', () => {
    const vm = newVM((v) => { v.status = { startFailure: { consecutiveFailCount: 2 } }; });
    expect(computeStartFailure(vm, undefined, inputs)).toEqual({ consecutiveFailCount: 2 });
  });
});

describe('backoffRemainingMs', () => {
  it.each([
    [undefined, 0], ['2026-01-01T00:00:10Z', 10_000], ['2025-12-31T23:59:00Z', 0],
  ])('retryAfter %s → %i ms', (ts, want) => {
    const vm = newVM((v) => { v.status = ts ? { startFailure: { retryAfterTimestamp: ts } } : {}; });
    expect(backoffRemainingMs(vm, now)).toBe(want);
  });
});
