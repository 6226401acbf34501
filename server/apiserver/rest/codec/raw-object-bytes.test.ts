import { expect, it } from 'vitest';
import type { KeyValue } from '../../store/types';
import type { ServedType } from '../types/resource-type';
import { rawListBytes, rawObjectEncoder } from './raw-object-bytes';

const rt = (version: string) => ({ group: 'kubevirt.io', version, kind: 'VirtualMachine' }) as ServedType;
const kv = (name: string, modRevision: number, spec: object = {}): KeyValue => ({
  key: `/registry/kubevirt.io/virtualmachines/default/${name}`,
  value: JSON.stringify({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name, namespace: 'default' }, spec }),
  modRevision, createRevision: 3,
});

it('serves a stored object with its resourceVersion, encoded once for as long as the store holds that value', () => {
  const encode = rawObjectEncoder(rt('v1'));
  const a = kv('a', 7, { runStrategy: 'Halted' });
  const bytes = encode(a);
  expect(JSON.parse(bytes.toString())).toEqual({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { resourceVersion: '7', name: 'a', namespace: 'default' }, spec: { runStrategy: 'Halted' } });
  expect(rawObjectEncoder(rt('v1'))(a)).toBe(bytes);
});

it('a new write of the same key is served with its own value and resourceVersion', () => {
  const encode = rawObjectEncoder(rt('v1'));
  encode(kv('a', 7, { runStrategy: 'Halted' }));
  const after = JSON.parse(encode(kv('a', 9, { runStrategy: 'Always' })).toString());
  expect(after.metadata.resourceVersion).toBe('9');
  expect(after.spec).toEqual({ runStrategy: 'Always' });
});

it('a client of another served version gets that apiVersion, not the cached bytes of v1', () => {
  const a = kv('a', 7);
  const v1 = rawObjectEncoder(rt('v1'))(a);
  const other = rawObjectEncoder(rt('v1alpha3'))(a);
  expect(JSON.parse(other.toString()).apiVersion).toBe('kubevirt.io/v1alpha3');
  expect(JSON.parse(rawObjectEncoder(rt('v1'))(a).toString())).toEqual(JSON.parse(v1.toString()));
  expect(rawObjectEncoder(rt('v1'))(a)).toBe(v1);
});

it('keeps non-ASCII text intact in the bytes', () => {
  const a = kv('a', 7, { description: 'Größe – 東京' });
  expect(JSON.parse(rawObjectEncoder(rt('v1'))(a).toString('utf8')).spec.description).toBe('Größe – 東京');
});

it('assembles a List body a client parses, for no, one and several items', () => {
  const head = '{"kind":"VirtualMachineList","apiVersion":"kubevirt.io/v1","metadata":{"resourceVersion":"9"},"items":[';
  const encode = rawObjectEncoder(rt('v1'));
  expect(JSON.parse(rawListBytes(head, []).toString()).items).toEqual([]);
  expect(JSON.parse(rawListBytes(head, [encode(kv('a', 7))]).toString()).items.map((o: { metadata: { name: string } }) => o.metadata.name)).toEqual(['a']);
  const list = JSON.parse(rawListBytes(head, ['a', 'b', 'c'].map((n, i) => encode(kv(n, i + 1)))).toString());
  expect(list.metadata.resourceVersion).toBe('9');
  expect(list.items.map((o: { metadata: { resourceVersion: string } }) => o.metadata.resourceVersion)).toEqual(['1', '2', '3']);
});
