import { describe, expect, it } from 'vitest';
import { decideNotReady, GRACE_PERIOD_EXCEEDED, RESTORE_GRACE_PERIOD_MS, STOP_TARGET_MESSAGE, TARGET_NOT_READY_FAILURE, targetReady, VMI_EXISTS_EVENT_MESSAGE, WAIT_EVENTUALLY_MESSAGE, WAIT_GRACE_PERIOD_MESSAGE } from './restore-readiness';

const vm = (spec: Record<string, unknown>) => ({ spec: spec as never });

describe('restore target readiness', () => {
  it.each<[string, Record<string, unknown>, boolean, boolean]>([
    ['Halted, no VMI', { runStrategy: 'Halted' }, false, true],
    ['Manual, no VMI', { runStrategy: 'Manual' }, false, true],
    ['running: false, no VMI', { running: false }, false, true],
    ['Halted but a VMI still exists (a Succeeded VMI whose launcher may still be shutting down)', { runStrategy: 'Halted' }, true, false],
    ['Always, no VMI (it would start again)', { runStrategy: 'Always' }, false, false],
    ['RerunOnFailure, no VMI', { runStrategy: 'RerunOnFailure' }, false, false],
  ])('%s', (_n, spec, vmiExists, ready) => {
    expect(targetReady(vm(spec), vmiExists)).toBe(ready);
  });
});

describe('targetReadinessPolicy while the target is not ready', () => {
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  it('WaitGracePeriod (the default) waits with KubeVirt\'s message and fails after 5 minutes', () => {
    expect(decideNotReady(undefined, t0, t0 + 1000)).toEqual({ action: 'wait', message: WAIT_GRACE_PERIOD_MESSAGE, event: VMI_EXISTS_EVENT_MESSAGE, retryAfterMs: RESTORE_GRACE_PERIOD_MS - 1000 });
    expect(decideNotReady('WaitGracePeriod', t0, t0 + RESTORE_GRACE_PERIOD_MS)).toEqual({ action: 'fail', message: GRACE_PERIOD_EXCEEDED });
    expect(WAIT_GRACE_PERIOD_MESSAGE).toBe('Waiting for target VM to be powered off. Please stop the restore target to proceed with restore, or the operation will fail after 5m0s');
  });
  it('WaitEventually waits with no deadline', () => {
    expect(decideNotReady('WaitEventually', t0, t0 + 24 * 3600_000)).toEqual({ action: 'wait', message: WAIT_EVENTUALLY_MESSAGE, event: VMI_EXISTS_EVENT_MESSAGE });
  });
  it('StopTarget stops it, FailImmediate fails at once, anything else fails naming it', () => {
    expect(decideNotReady('StopTarget', t0, t0)).toEqual({ action: 'stop', message: STOP_TARGET_MESSAGE });
    expect(decideNotReady('FailImmediate', t0, t0)).toEqual({ action: 'fail', message: TARGET_NOT_READY_FAILURE });
    expect(decideNotReady('Later', t0, t0)).toEqual({ action: 'fail', message: 'unknown targetReadinessPolicy: Later' });
  });
});
