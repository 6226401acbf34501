import { describe, expect, it } from 'vitest';
import { validatePv, validatePvUpdate } from './pv-validation';

const affinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] }] }] } };
const volume = (spec: Record<string, unknown>) => ({
  metadata: { name: 'v' },
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem', ...spec },
});
const messages = (causes: { field?: string; message: string }[]) => causes.map((c) => `${c.field}: ${c.message}`);

describe('validatePv', () => {
  it.each([
    ['hostPath', { hostPath: { path: '/data/v' } }],
    ['local with node affinity', { local: { path: '/mnt/disk' }, nodeAffinity: affinity }],
    ['nfs', { nfs: { server: 'nfs.local', path: '/exports/v' } }],
    ['csi', { csi: { driver: 'hostpath.csi.k8s.io', volumeHandle: 'vol-1' } }],
  ])('accepts a %s volume', (_n, spec) => {
    expect(validatePv(volume(spec))).toEqual([]);
  });

  it.each([
    ['no volume source', {}, 'spec: Required value: must specify a volume type'],
    ['two volume sources', { hostPath: { path: '/a' }, nfs: { server: 's', path: '/b' } }, 'spec.nfs: Forbidden: may not specify more than 1 volume type'],
    ['no capacity', { hostPath: { path: '/a' }, capacity: {} }, 'spec.capacity: Required value'],
    ['capacity without storage', { hostPath: { path: '/a' }, capacity: { cpu: '1' } }, 'spec.capacity: Unsupported value: core.ResourceList{"cpu":"1"}: supported values: "storage"'],
    ['no access modes', { hostPath: { path: '/a' }, accessModes: [] }, 'spec.accessModes: Required value'],
    ['a local volume without node affinity', { local: { path: '/mnt/disk' } }, 'spec.nodeAffinity: Required value: Local volume requires node affinity'],
    ['node affinity without terms', { local: { path: '/mnt/disk' }, nodeAffinity: { required: { nodeSelectorTerms: [] } } }, 'spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term'],
    ['an In requirement without values', { local: { path: '/d' }, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'In' }] }] } } }, "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"],
    ['an nfs path that is not absolute', { nfs: { server: 's', path: 'exports' } }, 'spec.nfs.path: Invalid value: "exports": must be an absolute path'],
    ['a csi volume without a handle', { csi: { driver: 'd.io' } }, 'spec.csi.volumeHandle: Required value'],
    ['a hostPath without a path', { hostPath: {} }, 'spec.hostPath.path: Required value'],
    ['an unknown reclaim policy', { hostPath: { path: '/a' }, persistentVolumeReclaimPolicy: 'Keep' }, 'spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"'],
  ])('refuses %s', (_n, spec, expected) => {
    expect(messages(validatePv(volume(spec)))).toContain(expected);
  });

  it('keeps the volume source and volume mode on update', () => {
    const old = volume({ hostPath: { path: '/a' } });
    const causes = messages(validatePvUpdate(volume({ hostPath: { path: '/b' }, volumeMode: 'Block' }), old));
    expect(causes[0]).toMatch(/^spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n/);
    expect(causes).toContain('volumeMode: Invalid value: "Block": field is immutable');
    expect(validatePvUpdate(volume({ hostPath: { path: '/a' }, claimRef: { namespace: 'default', name: 'c' } }), old)).toEqual([]);
  });
});
