import { describe, expect, it } from 'vitest';
import { decodeObject, encodeObject, nowTimestamp, objectKey, parseKey, rawObject, stampedText } from './object-codec';

const vmType = { group: 'kubevirt.io', version: 'v1', kind: 'VirtualMachine', resource: 'virtualmachines', namespaced: true };

describe('object codec', () => {
  it.each([
    ['stored by this server', encodeObject({ kind: 'VirtualMachine', spec: { a: 1 }, metadata: { name: 'x', resourceVersion: '3' }, apiVersion: 'kubevirt.io/v1' })],
    ['stored with another key order', JSON.stringify({ spec: { a: 1 }, metadata: { name: 'x' }, apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine' })],
    ['stored under another version', JSON.stringify({ apiVersion: 'kubevirt.io/v1alpha3', kind: 'VirtualMachine', metadata: { name: 'x' }, spec: { a: 1 } })],
  ])('rawObject equals decodeObject for an object %s', (_n, value) => {
    const kv = { value, modRevision: 42 };
    expect(JSON.parse(rawObject(vmType, kv))).toEqual(decodeObject(vmType, kv));
    expect(decodeObject(vmType, kv).metadata.resourceVersion).toBe('42');
  });

  it('never stores the resourceVersion', () => {
    expect(JSON.parse(encodeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', resourceVersion: '9' } })).metadata).toEqual({ name: 'c' });
  });

  it.each([
    [vmType, 'ns1', 'vm1', '/registry/kubevirt.io/virtualmachines/ns1/vm1'],
    [{ group: '', resource: 'nodes', namespaced: false }, undefined, 'n1', '/registry/core/nodes/_/n1'],
  ])('keys %s/%s', (rt, ns, name, key) => {
    expect(objectKey(rt, ns, name)).toBe(key);
    expect(parseKey(key)).toEqual({ group: rt.group, resource: rt.resource, namespace: ns, name });
  });

  it('stamps the resourceVersion into stored text only when that text is the served type\'s', () => {
    const stored = encodeObject({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'x', resourceVersion: '1' }, spec: { a: 1 } });
    expect(JSON.parse(stampedText(vmType, stored, 42)!)).toEqual(decodeObject(vmType, { value: stored, modRevision: 42 }));
    expect(stampedText({ ...vmType, version: 'v1alpha3' }, stored, 42)).toBeUndefined();
    expect(stampedText(vmType, JSON.stringify({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: {} }), 42)).toBeUndefined();
  });

  it('stamps times as kube does: RFC 3339 in UTC, whole seconds', () => {
    expect(nowTimestamp(new Date('2026-11-26T11:29:08.123Z'))).toBe('2026-11-26T11:29:08Z');
    expect(nowTimestamp(new Date('1999-01-02T03:04:05.999Z'))).toBe('1999-01-02T03:04:05Z');
  });
});
