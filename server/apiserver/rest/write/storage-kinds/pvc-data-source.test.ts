import { describe, expect, it } from 'vitest';
import { normalizeDataSources } from './pvc-data-source';

describe('normalizeDataSources', () => {
  it.each([
    ['dataSource fills dataSourceRef', { dataSource: { kind: 'PersistentVolumeClaim', name: 'a' } }, { dataSource: { kind: 'PersistentVolumeClaim', name: 'a' }, dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'a' } }],
    ['dataSourceRef fills dataSource', { dataSourceRef: { apiGroup: 'g.io', kind: 'K', name: 'a' } }, { dataSource: { apiGroup: 'g.io', kind: 'K', name: 'a' }, dataSourceRef: { apiGroup: 'g.io', kind: 'K', name: 'a' } }],
    ['a cross-namespace ref stays alone', { dataSourceRef: { kind: 'K', name: 'a', namespace: 'o' } }, { dataSourceRef: { kind: 'K', name: 'a', namespace: 'o' } }],
    ['neither', {}, {}],
  ])('%s', (_n, spec, expected) => {
    const s: Record<string, unknown> = structuredClone(spec);
    normalizeDataSources(s);
    expect(s).toEqual(expected);
  });
});
