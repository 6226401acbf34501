import { describe, expect, it } from 'vitest';
import { renderTable } from './table';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const created = '2026-01-01T00:00:00Z';
const rows = (kind: string, objects: unknown[]) => {
  const t = renderTable(undefined, objects, { includeObject: 'None', listMeta: {}, kind, now: NOW });
  return { header: t.columnDefinitions.map((c: { name: string }) => c.name), cells: t.rows.map((r: { cells: unknown[] }) => r.cells) };
};

describe('storage tables', () => {
  it('prints a bound and a pending claim like kubectl', () => {
    const boundClaim = {
      metadata: { name: 'data', creationTimestamp: created },
      spec: { volumeName: 'pv1', storageClassName: 'fast', volumeMode: 'Filesystem', resources: { requests: { storage: '1Gi' } } },
      status: { phase: 'Bound', capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOncePod', 'ReadWriteOnce', 'ReadWriteMany'] },
    };
    const pending = { metadata: { name: 'p', creationTimestamp: created, deletionTimestamp: created }, spec: { resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } };
    const t = rows('PersistentVolumeClaim', [boundClaim, pending]);
    expect(t.header).toEqual(['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age', 'VolumeMode']);
    expect(t.cells).toEqual([
      ['data', 'Bound', 'pv1', '2Gi', 'RWO,RWX,RWOP', 'fast', '<unset>', '10m', 'Filesystem'],
      ['p', 'Terminating', '', '', '', '', '<unset>', '10m', '<unset>'],
    ]);
  });

  it('prints a volume with its claim', () => {
    const pv = {
      metadata: { name: 'pv1', creationTimestamp: created },
      spec: { capacity: { storage: '2Gi' }, accessModes: ['ReadOnlyMany'], persistentVolumeReclaimPolicy: 'Delete', claimRef: { namespace: 'default', name: 'data' }, storageClassName: 'fast' },
      status: { phase: 'Released', reason: 'Gone' },
    };
    expect(rows('PersistentVolume', [pv]).cells).toEqual([['pv1', '2Gi', 'ROX', 'Delete', 'Released', 'default/data', 'fast', '<unset>', 'Gone', '10m', '<unset>']]);
  });

  it('marks the default class', () => {
    const sc = { metadata: { name: 'fast', creationTimestamp: created, annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'p.io/x' };
    expect(rows('StorageClass', [sc]).cells).toEqual([['fast (default)', 'p.io/x', 'Delete', 'Immediate', false, '10m']]);
  });
});
