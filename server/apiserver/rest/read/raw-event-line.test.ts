import { expect, it } from 'vitest';
import type { StoreEvent } from '../../store/types';
import type { ServedType } from '../types/resource-type';
import { rawEventLine } from './raw-event-line';

const rt = (version: string) => ({ group: 'kubevirt.io', version, kind: 'VirtualMachine' }) as ServedType;
const event = (): StoreEvent => ({
  type: 'MODIFIED',
  kv: { key: '/vm/a', value: '{"apiVersion":"kubevirt.io/v1","kind":"VirtualMachine","metadata":{"name":"a"},"spec":{}}', modRevision: 7, createRevision: 3 },
});

it('encodes a live event once for every watcher of the same type, as the line a client parses', () => {
  const v1 = rt('v1');
  const e = event();
  const first = rawEventLine(v1, e);
  expect(rawEventLine(v1, e)).toBe(first);
  expect(JSON.parse(first.toString())).toEqual({ type: 'MODIFIED', object: { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { resourceVersion: '7', name: 'a' }, spec: {} } });
  expect(first.toString().endsWith('}\n')).toBe(true);
  expect(rawEventLine(v1, event())).not.toBe(first);
});

it('a watcher of another served version gets its own encoding', () => {
  const e = event();
  const v1 = rawEventLine(rt('v1'), e);
  const other = rawEventLine(rt('v1alpha3'), e);
  expect(other).not.toBe(v1);
  expect(JSON.parse(other.toString()).object.apiVersion).toBe('kubevirt.io/v1alpha3');
});
