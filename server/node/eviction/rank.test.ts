import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { makePod, withRequests } from '../testing-builders';
import { disruptionCondition, evictionMessage, isCriticalPod, rankForEviction, type EvictionCandidate } from './rank';
import { parseEvictionHard } from './thresholds';

const MI = 2 ** 20;
const withPriority = (priority: number) => (p: V1Pod) => void (p.spec!.priority = priority);
const withLimits = (limits: Record<string, string>) => (p: V1Pod) => void (p.spec!.containers[0].resources!.limits = limits);
const names = (cs: EvictionCandidate[]) => cs.map((c) => c.pod.metadata!.name);

describe('eviction ranking for memory (kube rankMemoryPressure)', () => {
  const bestEffort = makePod('best-effort');
  const burstableOver = makePod('burstable-over', withRequests({ memory: '64Mi' }));
  const burstableUnder = makePod('burstable-under', withRequests({ memory: '512Mi' }));
  const guaranteed = makePod('guaranteed', withRequests({ memory: '256Mi', cpu: '100m' }), withLimits({ memory: '256Mi', cpu: '100m' }));

  it('puts Pods using more than they request first, Guaranteed ones under their request last', () => {
    const ranked = rankForEviction([
      { pod: guaranteed, usage: 200 * MI },
      { pod: burstableUnder, usage: 100 * MI },
      { pod: bestEffort, usage: 10 * MI },
      { pod: burstableOver, usage: 300 * MI },
    ], 'memory');
    // both over their request: the larger excess first (300-64 > 10-0); then those under, the smaller shortfall first
    expect(names(ranked)).toEqual(['burstable-over', 'best-effort', 'guaranteed', 'burstable-under']);
  });

  it('among Pods over their request, the lower priority goes first whatever its usage', () => {
    const low = makePod('low', withPriority(-10));
    const high = makePod('high', withPriority(1000));
    expect(names(rankForEviction([{ pod: high, usage: 900 * MI }, { pod: low, usage: 1 * MI }], 'memory'))).toEqual(['low', 'high']);
    // but exceeding the request still outranks priority
    const highUnder = makePod('high-under', withPriority(-1000), withRequests({ memory: '1Gi' }));
    expect(names(rankForEviction([{ pod: highUnder, usage: 10 * MI }, { pod: high, usage: 10 * MI }], 'memory'))).toEqual(['high', 'high-under']);
  });

  it('evicts a Pod it could not measure first and never a system-critical one', () => {
    const critical = makePod('critical', withPriority(2_000_000_000));
    expect(isCriticalPod(critical)).toBe(true);
    expect(names(rankForEviction([{ pod: critical, usage: 999 * MI }, { pod: bestEffort, usage: 5 * MI }, { pod: guaranteed }], 'memory'))).toEqual(['guaranteed', 'best-effort']);
  });

  it('ranks by ephemeral-storage requests for disk pressure', () => {
    const small = makePod('asks-disk', withRequests({ 'ephemeral-storage': '1Gi' }));
    expect(names(rankForEviction([{ pod: small, usage: 100 * MI }, { pod: bestEffort, usage: 1 * MI }], 'ephemeral-storage'))).toEqual(['best-effort', 'asks-disk']);
  });
});

describe('eviction message (kube evictionMessage)', () => {
  const [memory] = parseEvictionHard('memory.available<100Mi');
  const [disk] = parseEvictionHard('nodefs.available<10%');

  it('names the resource, the threshold, what was available and the container over its request', () => {
    const pod = makePod('p');
    expect(evictionMessage({ pod, usage: 200 * MI }, memory, { available: 50 * MI })).toBe(
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. Container c was using 200Mi, request is 0, has larger consumption of memory. ',
    );
    const odd = { pod: makePod('q', withRequests({ memory: '64Mi' })), usage: 70 * MI + 4096 };
    expect(evictionMessage(odd, memory, { available: 51_204 * 1024 })).toBe(
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 51204Ki. Container c was using 71684Ki, request is 64Mi, has larger consumption of memory. ',
    );
  });

  it('says nothing about a container within its request, and turns a percentage into the quantity', () => {
    const pod = makePod('g', withRequests({ memory: '1Gi' }));
    expect(evictionMessage({ pod, usage: 10 * MI }, memory, { available: 0 })).toBe('The node was low on resource: memory. Threshold quantity: 100Mi, available: 0. ');
    expect(evictionMessage({ pod, usage: 3 * MI }, disk, { available: 1 * MI, capacity: 100 * MI })).toBe(
      'The node was low on resource: ephemeral-storage. Threshold quantity: 10Mi, available: 1Mi. Container c was using 3Mi, request is 0, has larger consumption of ephemeral-storage. ',
    );
  });

  it('adds the DisruptionTarget condition kube sets on a Pod the kubelet evicts', () => {
    expect(disruptionCondition('m', '2026-01-01T00:00:00Z')).toMatchObject({ type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message: 'm' });
  });
});
