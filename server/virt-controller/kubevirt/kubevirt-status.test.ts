import { describe, expect, it } from 'vitest';
import type { KubeVirt } from '../../../lib/kubevirt/kubevirt-cr';
import { desiredKubeVirtStatus, statusIsCurrent } from './kubevirt-status';

const cr = (status?: KubeVirt['status']): KubeVirt => ({ apiVersion: 'kubevirt.io/v1', kind: 'KubeVirt', metadata: { name: 'kubevirt', namespace: 'kubevirt', generation: 3 }, status });

describe('KubeVirt CR status', () => {
  it('reports Deployed for the current generation with the operator\'s three conditions', () => {
    const s = desiredKubeVirtStatus(cr(), 'v0.1.0', 'T1');
    expect(s).toMatchObject({ phase: 'Deployed', observedKubeVirtVersion: 'v0.1.0', targetKubeVirtVersion: 'v0.1.0', observedGeneration: 3 });
    expect(s.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['Available=True', 'Progressing=False', 'Degraded=False']);
    expect(statusIsCurrent(cr(s), 'v0.1.0')).toBe(true);
  });

  it('is stale after a spec change (new generation) or a new version, and keeps transition times that did not change', () => {
    const s = desiredKubeVirtStatus(cr(), 'v0.1.0', 'T1');
    expect(statusIsCurrent({ ...cr(s), metadata: { name: 'kubevirt', generation: 4 } }, 'v0.1.0')).toBe(false);
    expect(statusIsCurrent(cr(s), 'v0.2.0')).toBe(false);
    expect(desiredKubeVirtStatus(cr(s), 'v0.1.0', 'T2').conditions?.[0].lastTransitionTime).toBe('T1');
  });
});
