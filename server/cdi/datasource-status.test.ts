import { describe, expect, it } from 'vitest';
import { computeDataSourceStatus, pvcSourceKey, type DataSource } from './datasource-status';
import type { DataVolume } from './datavolume-types';

const NOW = '2026-01-01T00:00:00Z';
const ds = (source: DataSource['spec']['source'], status?: DataSource['status']): DataSource => ({ metadata: { name: 'fedora', namespace: 'os' }, spec: { source }, status });
const dv = (phase: string): DataVolume => ({ metadata: { name: 'fedora-disk', namespace: 'os' }, spec: {}, status: { phase } });
const pvc = { metadata: { name: 'fedora-disk', namespace: 'os' }, status: { phase: 'Bound' } };
const ready = (s: DataSource['status']) => s?.conditions?.find((c) => c.type === 'Ready');

describe('DataSource Ready, in CDI words', () => {
  it.each([
    ['PVC exists (no DataVolume of that name)', ds({ pvc: { name: 'fedora-disk' } }), { pvc }, ['True', 'Ready', 'DataSource is ready to be consumed']],
    ['PVC missing', ds({ pvc: { name: 'fedora-disk' } }), {}, ['False', 'NotFound', 'PVC not found']],
    ['DataVolume Succeeded', ds({ pvc: { name: 'fedora-disk', namespace: 'os' } }), { dv: dv('Succeeded'), pvc }, ['True', 'Ready', 'DataSource is ready to be consumed']],
    ['DataVolume still importing', ds({ pvc: { name: 'fedora-disk' } }), { dv: dv('ImportInProgress'), pvc }, ['False', 'ImportInProgress', 'Import DataVolume phase ImportInProgress']],
    ['snapshot source (VolumeSnapshots are not served)', ds({ snapshot: { name: 'snap' } }), {}, ['False', 'NotFound', 'Snapshot not found']],
    ['no source', ds({}), {}, ['False', 'NoSource', 'No source PVC set']],
  ])('%s', (_n, d, inputs, [status, reason, message]) => {
    const s = computeDataSourceStatus(d, { ...inputs, now: NOW });
    expect(ready(s)).toMatchObject({ status, reason, message, lastTransitionTime: NOW });
    expect(s.source).toEqual(d.spec.source);
  });

  it('keeps lastTransitionTime while Ready does not change; a new source starts over', () => {
    const first = computeDataSourceStatus(ds({ pvc: { name: 'fedora-disk' } }), { pvc, now: NOW });
    const again = computeDataSourceStatus(ds({ pvc: { name: 'fedora-disk' } }, first), { pvc, now: '2026-01-02T00:00:00Z' });
    expect(ready(again)?.lastTransitionTime).toBe(NOW);
    const moved = computeDataSourceStatus(ds({ pvc: { name: 'other' } }, first), { pvc, now: '2026-01-02T00:00:00Z' });
    expect(ready(moved)?.lastTransitionTime).toBe('2026-01-02T00:00:00Z');
  });

  it("names the source PVC by its namespace, else the DataSource's", () => {
    expect(pvcSourceKey(ds({ pvc: { name: 'a' } }))).toBe('os/a');
    expect(pvcSourceKey(ds({ pvc: { name: 'a', namespace: 'golden' } }))).toBe('golden/a');
    expect(pvcSourceKey(ds({ snapshot: { name: 'a' } }))).toBeUndefined();
  });
});
