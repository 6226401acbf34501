import { describe, expect, it } from 'vitest';
import { claimsOfPod, podBlocksClaim } from './storage-protection-controller';

const pod = (o: { nodeName?: string; phase?: string } = {}) => ({
  metadata: { name: 'p' },
  spec: { nodeName: o.nodeName, volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }, { name: 'scratch', ephemeral: {} }, { name: 'e', emptyDir: {} }] },
  status: { phase: o.phase ?? 'Running' },
});

describe('pvc protection', () => {
  it('names the claims a pod uses, ephemeral ones as <pod>-<volume>', () => {
    expect(claimsOfPod(pod())).toEqual(['data', 'p-scratch']);
  });

  it.each([
    ['a running scheduled pod', pod({ nodeName: 'n1' }), 'data', true],
    ['a pending scheduled pod', pod({ nodeName: 'n1', phase: 'Pending' }), 'p-scratch', true],
    ['an unscheduled pod', pod(), 'data', false],
    ['a finished pod', pod({ nodeName: 'n1', phase: 'Succeeded' }), 'data', false],
    ['a failed pod', pod({ nodeName: 'n1', phase: 'Failed' }), 'data', false],
    ['a pod using another claim', pod({ nodeName: 'n1' }), 'other', false],
  ])('%s blocks the claim: %s', (_n, p, claim, blocks) => {
    expect(podBlocksClaim(p, claim)).toBe(blocks);
  });
});
