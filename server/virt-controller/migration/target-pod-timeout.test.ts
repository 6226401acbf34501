import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MIGRATION_SETTINGS } from './constants';
import { checkPendingTargetPod } from './target-pod-timeout';

const created = '2026-01-01T00:00:00Z';
const min = (m: number) => new Date(Date.parse(created) + m * 60_000);
function pod(status: V1Pod['status']): V1Pod {
  return { metadata: { name: 't', creationTimestamp: new Date(created) }, status };
}
const unschedulableSince = (m: number) => pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/2 nodes are available', lastTransitionTime: min(m) }] });

describe('checkPendingTargetPod', () => {
  it.each([
    ['unschedulable 4 min', unschedulableSince(0), 4, false, undefined],
    ['unschedulable 5 min', unschedulableSince(0), 5, true, true],
    ['unschedulable since minute 3, now minute 7', unschedulableSince(3), 7, false, undefined],
    ['pending (bound, not started) 14 min', pod({ phase: 'Pending' }), 14, false, undefined],
    ['pending 15 min', pod({ phase: 'Pending' }), 15, true, false],
    ['running pods never expire', pod({ phase: 'Running' }), 60, false, undefined],
  ])('%s', (_n, p, minute, expired, unschedulable) => {
    const v = checkPendingTargetPod(p, min(minute), DEFAULT_MIGRATION_SETTINGS);
    expect(v.expired).toBe(expired);
    if (v.expired) expect(v.unschedulable).toBe(unschedulable);
  });

  it('says when to look again', () => {
    const v = checkPendingTargetPod(unschedulableSince(0), min(1), DEFAULT_MIGRATION_SETTINGS);
    expect(v).toEqual({ expired: false, recheckAfterMs: 4 * 60_000 });
  });

  it('names the scheduler message when it gives up', () => {
    const v = checkPendingTargetPod(unschedulableSince(0), min(6), DEFAULT_MIGRATION_SETTINGS);
    expect(v.expired && v.message).toContain('0/2 nodes are available');
  });
});
