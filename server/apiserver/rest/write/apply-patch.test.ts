import { describe, expect, it } from 'vitest';
import type { ApiObject } from '../types/api-object';
import { BUILTIN_TYPES } from '../types/builtin-types';
import { applyConfiguration, fromFieldsV1, toFieldsV1 } from './apply-patch';

const cmType = BUILTIN_TYPES.find((t) => t.resource === 'configmaps')!;
const cm = (data: Record<string, string>, labels?: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', ...(labels ? { labels } : {}) }, data });

describe('server-side apply', () => {
  it('round-trips field sets through FieldsV1', () => {
    const paths = [['data', 'a'], ['metadata', 'labels', 'x']];
    expect(toFieldsV1(paths)).toEqual({ 'f:data': { 'f:a': {} }, 'f:metadata': { 'f:labels': { 'f:x': {} } } });
    expect(fromFieldsV1(toFieldsV1(paths))).toEqual(paths);
  });

  it.each([
    ['removes a field the manager stopped applying', [['m1', cm({ a: '1', b: '2' })], ['m1', cm({ a: '1' })]], { a: '1', z: 'manual' }],
    ['keeps a field another applier owns', [['m1', cm({ a: '1', b: '2' })], ['m2', cm({ b: '2' })], ['m1', cm({ a: '1' })]], { a: '1', b: '2', z: 'manual' }],
    ['keeps fields written by plain updates', [['m1', cm({ a: '1', b: '2' })], ['m1', cm({ b: '3' })]], { b: '3', z: 'manual' }],
  ])('%s', (_n, applies, data) => {
    let live: ApiObject = { ...cm({ z: 'manual' }), metadata: { name: 'c', uid: 'u' } };
    for (const [manager, config] of applies as [string, unknown][]) live = applyConfiguration(cmType, live, config, manager);
    expect(live.data).toEqual(data);
  });

  it('keeps the live metadata when the configuration sends metadata: null, and refuses a metadata that is not an object', () => {
    const live = applyConfiguration(cmType, { ...cm({}), metadata: { name: 'c', uid: 'u' } }, { ...cm({ a: '1' }), metadata: null }, 'm');
    expect(live.metadata).toMatchObject({ name: 'c', uid: 'u' });
    expect(live.data).toEqual({ a: '1' });
    expect(() => applyConfiguration(cmType, live, { ...cm({}), metadata: 'x' }, 'm')).toThrow(expect.objectContaining({ code: 400, message: 'metadata must be an object' }));
  });

  it('removes labels dropped from the configuration', () => {
    let live = applyConfiguration(cmType, { ...cm({}), metadata: { name: 'c' } }, cm({}, { a: '1', b: '2' }), 'm');
    live = applyConfiguration(cmType, live, cm({}, { a: '1' }), 'm');
    expect(live.metadata.labels).toEqual({ a: '1' });
    expect(live.metadata.managedFields).toHaveLength(1);
  });
});
