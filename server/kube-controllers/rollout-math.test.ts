import { describe, expect, it } from 'vitest';
import { newReplicaSetReplicas, resolveFenceposts, scaledValue, scaleDownOldSets } from './rollout-math';

describe('rolling update arithmetic (kube deployment/util)', () => {
  it('resolves 25%/25% of 10 to surge 3 (rounded up) and unavailable 2 (rounded down)', () => {
    expect(resolveFenceposts('25%', '25%', 10)).toEqual({ surge: 3, unavailable: 2 });
  });

  it('2 replicas with 25%/25%: surge 1, unavailable 0', () => {
    expect(resolveFenceposts('25%', '25%', 2)).toEqual({ surge: 1, unavailable: 0 });
  });

  it('maxSurge 0 and maxUnavailable 0% would stall, so unavailable becomes 1', () => {
    expect(resolveFenceposts(0, '0%', 5)).toEqual({ surge: 0, unavailable: 1 });
  });

  it('reads counts and percentages; a bad value counts as 0', () => {
    expect(scaledValue(4, 10, true)).toBe(4);
    expect(scaledValue('33%', 10, true)).toBe(4);
    expect(scaledValue('33%', 10, false)).toBe(3);
    expect(scaledValue(undefined, 10, true)).toBe(0);
  });

  it('grows the new set only while the total stays within desired + surge', () => {
    expect(newReplicaSetReplicas(2, 1, 0, 2)).toBe(1); // 2 old + 1 new = 3 = 2 + surge
    expect(newReplicaSetReplicas(2, 1, 1, 3)).toBe(1); // at the ceiling: wait for old Pods to go
    expect(newReplicaSetReplicas(2, 1, 1, 2)).toBe(2);
    expect(newReplicaSetReplicas(3, 1, 2, 2)).toBe(3); // a scale-up with no old set: straight to desired
  });

  it('scales old sets down only as far as availability allows', () => {
    // 2 desired, unavailable 0: new set has 1 replica not yet available → nothing may go
    expect(scaleDownOldSets(2, 0, [{ name: 'old', replicas: 2, available: 2 }], { replicas: 1, available: 0 })).toEqual(new Map());
    // the new Pod became available: one old Pod may go
    expect(scaleDownOldSets(2, 0, [{ name: 'old', replicas: 2, available: 2 }], { replicas: 1, available: 1 })).toEqual(new Map([['old', 1]]));
  });

  it('drops unhealthy old Pods first, then healthy ones down to desired - maxUnavailable available', () => {
    const cuts = scaleDownOldSets(4, 1, [
      { name: 'oldest', replicas: 2, available: 0 },
      { name: 'older', replicas: 2, available: 2 },
    ], { replicas: 2, available: 2 });
    // available 4 (older's 2 + new 2), minimum 3: the 2 unavailable Pods go, and 1 healthy one
    expect(cuts.get('oldest')).toBe(0);
    expect(cuts.get('older')).toBe(1);
  });
});
