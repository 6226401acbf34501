import { describe, expect, it } from 'vitest';
import { computeVMIReady, controllerOwnsReady, handlerOwnsReady, type ReadyPod } from './vmi-ready';

const pod = (ready?: { status: string; reason?: string; message?: string }, deleting = false): ReadyPod => ({
  metadata: deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {},
  status: { conditions: ready ? [{ type: 'Ready', ...ready }] : [] },
});
const paused = [{ type: 'Paused', status: 'True' as const, reason: 'PausedStartStrategy', message: 'VMI was paused by start strategy' }];

describe('computeVMIReady', () => {
  it.each([
    ['no pod', 'Scheduling', undefined, [], 'False', 'PodNotExists'],
    ['pod terminating', 'Running', pod({ status: 'True' }, true), [], 'False', 'PodTerminating'],
    ['guest not running yet', 'Scheduled', pod({ status: 'True' }), [], 'False', 'GuestNotRunning'],
    ['guest paused: the Paused reason', 'Running', pod({ status: 'False', reason: 'ReadinessGatesNotReady' }), paused, 'False', 'PausedStartStrategy'],
    ['pod without Ready', 'Running', pod(), [], 'False', 'PodConditionMissing'],
    ['pod not ready: its reason', 'Running', pod({ status: 'False', reason: 'ReadinessGatesNotReady' }), [], 'False', 'ReadinessGatesNotReady'],
    ['pod not ready without a reason', 'Running', pod({ status: 'False' }), [], 'False', 'PodNotReady'],
    ['running and pod ready', 'Running', pod({ status: 'True' }), [], 'True', undefined],
  ])('%s', (_n, phase, p, conds, status, reason) => {
    const ready = computeVMIReady(phase, p, conds);
    expect([ready.type, ready.status, ready.reason]).toEqual(['Ready', status, reason]);
  });
});

describe('Ready has one writer at a time', () => {
  it.each([
    ['Scheduled', 'Scheduled', false],
    ['Scheduled', 'Running', true],
    ['Running', 'Running', true],
    ['Running', 'Succeeded', true],
    ['Scheduled', 'Failed', false],
  ])('virt-handler, %s → %s: %s', (from, to, owns) => {
    expect(handlerOwnsReady(from, to)).toBe(owns);
  });

  it.each(['', 'Pending', 'Scheduling', 'Scheduled', 'Running', 'Succeeded', 'Failed'])('virt-controller and virt-handler never both keep a %s VMI\'s Ready', (phase) => {
    // a VMI that stays in `phase`: exactly one of the two computes Ready
    expect(controllerOwnsReady(phase) !== handlerOwnsReady(phase, phase)).toBe(true);
  });
});
