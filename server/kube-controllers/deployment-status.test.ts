import { describe, expect, it } from 'vitest';
import { computeDeploymentStatus } from './deployment-status';
import { sameTemplate } from './deployment-revisions';
import type { Deployment, ReplicaSet } from './resources';

const deployment = (replicas: number): Deployment => ({
  metadata: { name: 'web', namespace: 'default', generation: 4 },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } } }, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } } },
});
const rs = (name: string, replicas: number, status: { replicas: number; ready: number; available: number }): ReplicaSet => ({
  metadata: { name },
  spec: { replicas, selector: {} },
  status: { replicas: status.replicas, readyReplicas: status.ready, availableReplicas: status.available },
});

describe('Deployment status', () => {
  it('sums its ReplicaSets, counts the new one as updated, and is Available and complete when all are', () => {
    const d = deployment(2);
    const newRS = rs('web-new', 2, { replicas: 2, ready: 2, available: 2 });
    const s = computeDeploymentStatus(d, [rs('web-old', 0, { replicas: 0, ready: 0, available: 0 }), newRS], newRS, new Date());
    expect(s).toMatchObject({ observedGeneration: 4, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2, unavailableReplicas: 0 });
    expect(s.conditions?.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
      ['Progressing', 'True', 'NewReplicaSetAvailable', 'ReplicaSet "web-new" has successfully progressed.'],
    ]);
  });

  it('is not Available below replicas - maxUnavailable, and reports progress mid-rollout', () => {
    const d = deployment(4); // maxUnavailable 25% of 4 = 1: needs 3 available
    const newRS = rs('web-new', 2, { replicas: 2, ready: 0, available: 0 });
    const s = computeDeploymentStatus(d, [rs('web-old', 3, { replicas: 3, ready: 2, available: 2 }), newRS], newRS, new Date(), { scaledOrCreated: true });
    expect(s).toMatchObject({ replicas: 5, updatedReplicas: 2, availableReplicas: 2, unavailableReplicas: 3 });
    expect(s.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([['Available', 'False', 'MinimumReplicasUnavailable'], ['Progressing', 'True', 'ReplicaSetUpdated']]);
  });

  it('turns Progressing False with ProgressDeadlineExceeded once no progress was made for progressDeadlineSeconds', () => {
    const d = deployment(2);
    d.spec!.progressDeadlineSeconds = 600;
    const long = new Date(Date.now() - 700_000).toISOString() as unknown as Date;
    d.status = { conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: 'x', lastUpdateTime: long, lastTransitionTime: long }] };
    const newRS = rs('web-new', 2, { replicas: 2, ready: 0, available: 0 });
    const s = computeDeploymentStatus(d, [newRS], newRS, new Date());
    expect(s.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "web-new" has timed out progressing.' });
  });
});

describe('the new ReplicaSet', () => {
  it('is the one whose template equals the Deployment’s, ignoring pod-template-hash and null zero values', () => {
    expect(sameTemplate(
      { metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' } }, spec: { containers: [{ name: 'c' }] } },
      { metadata: { labels: { app: 'web' }, creationTimestamp: null as unknown as Date }, spec: { containers: [{ name: 'c' }] } },
    )).toBe(true);
    expect(sameTemplate({ spec: { containers: [{ name: 'c', image: 'a' }] } }, { spec: { containers: [{ name: 'c', image: 'b' }] } })).toBe(false);
  });
});
