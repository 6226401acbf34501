import { describe, expect, it } from 'vitest';
import type { ApiObject } from '../../types/api-object';
import { PV_STRATEGY, PVC_STRATEGY, STORAGE_CLASS_STRATEGY } from './storage-strategies';

interface Obj extends ApiObject {
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

describe('storage strategies', () => {
  it('starts a claim Pending with volumeMode Filesystem, whatever status it was sent with', () => {
    const pvc: Obj = { metadata: { name: 'c' }, spec: { resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Bound' } };
    PVC_STRATEGY.prepareForCreate!(pvc);
    expect(pvc.spec?.volumeMode).toBe('Filesystem');
    expect(pvc.status).toEqual({ phase: 'Pending' });
  });

  it('refuses a malformed quantity with kube\'s decode error', () => {
    const pvc: Obj = { metadata: { name: 'c' }, spec: { resources: { requests: { storage: 'lots' } } } };
    expect(() => PVC_STRATEGY.prepareForCreate!(pvc)).toThrow(/PersistentVolumeClaim in version "v1" cannot be handled as a PersistentVolumeClaim: quantities must match the regular expression/);
  });

  it('starts a volume Pending with Retain and Filesystem, and stamps phase transitions', () => {
    const pv: Obj = { metadata: { name: 'v' }, spec: {} };
    PV_STRATEGY.prepareForCreate!(pv);
    expect(pv.spec).toEqual({ persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' });
    expect(pv.status?.phase).toBe('Pending');
    const old = { status: { phase: 'Pending', lastPhaseTransitionTime: '2020-01-01T00:00:00Z' } };
    const next: Obj = { metadata: { name: 'v' }, status: { phase: 'Bound', lastPhaseTransitionTime: '2020-01-01T00:00:00Z' } };
    PV_STRATEGY.prepareForStatusUpdate!(next, old);
    expect(next.status?.lastPhaseTransitionTime).not.toBe('2020-01-01T00:00:00Z');
    const same: Obj = { metadata: { name: 'v' }, status: { phase: 'Pending', lastPhaseTransitionTime: '2020-01-01T00:00:00Z', message: 'm' } };
    PV_STRATEGY.prepareForStatusUpdate!(same, old);
    expect(same.status?.lastPhaseTransitionTime).toBe('2020-01-01T00:00:00Z');
  });

  it('defaults a class to Delete and Immediate', () => {
    const sc: Obj = { metadata: { name: 's' }, provisioner: 'p.io/x' };
    STORAGE_CLASS_STRATEGY.prepareForCreate!(sc);
    expect(sc).toMatchObject({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
  });
});
