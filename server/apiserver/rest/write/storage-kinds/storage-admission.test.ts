import { describe, expect, it } from 'vitest';
import { claimClass, defaultClass, resizeRefusal } from './storage-admission';

const cls = (name: string, created: string, o: Record<string, unknown> = {}, isDefault = true) => ({
  metadata: { name, creationTimestamp: created, annotations: isDefault ? { 'storageclass.kubernetes.io/is-default-class': 'true' } : {} },
  provisioner: 'p.io/x',
  ...o,
});
const pvc = (storage: string, phase = 'Bound', storageClassName = 'fast') => ({ metadata: { name: 'c' }, spec: { storageClassName, resources: { requests: { storage } } }, status: { phase } });

describe('defaultClass', () => {
  it('picks the newest default class, then the first by name', () => {
    expect(defaultClass([cls('a', '2026-01-01T00:00:00Z'), cls('b', '2026-01-02T00:00:00Z'), cls('z', '2026-01-03T00:00:00Z', {}, false)])?.metadata).toMatchObject({ name: 'b' });
    expect(defaultClass([cls('d', '2026-01-01T00:00:00Z'), cls('c', '2026-01-01T00:00:00Z')])?.metadata).toMatchObject({ name: 'c' });
    expect(defaultClass([cls('a', '2026-01-01T00:00:00Z', {}, false)])).toBeUndefined();
  });

  it('reads the beta class annotation before spec.storageClassName', () => {
    expect(claimClass({ metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 'old' } }, spec: { storageClassName: 'new' } })).toBe('old');
  });
});

describe('resizeRefusal', () => {
  const expandable = [cls('fast', '2026-01-01T00:00:00Z', { allowVolumeExpansion: true }), cls('slow', '2026-01-01T00:00:00Z', {}, false)];

  it.each([
    ['a grown bound claim of an expandable class', pvc('2Gi'), pvc('1Gi'), undefined],
    ['an unchanged request', pvc('1Gi', 'Pending'), pvc('1Gi', 'Pending'), undefined],
    ['a grown unbound claim', pvc('2Gi', 'Pending'), pvc('1Gi', 'Pending'), 'Only bound persistent volume claims can be expanded'],
    ['a class without allowVolumeExpansion', pvc('2Gi', 'Bound', 'slow'), pvc('1Gi', 'Bound', 'slow'), 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize'],
    ['a class that does not exist', pvc('2Gi', 'Bound', 'gone'), pvc('1Gi', 'Bound', 'gone'), 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize'],
  ])('%s', (_n, next, old, expected) => {
    expect(resizeRefusal(next, old, expandable)).toBe(expected);
  });
});
