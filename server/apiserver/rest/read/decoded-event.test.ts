import { expect, it } from 'vitest';
import type { StoreEvent } from '../../store/types';
import type { ServedType } from '../types/resource-type';
import { decodedEvent } from './decoded-event';

const rt = (version: string) => ({ group: 'kubevirt.io', version, kind: 'VirtualMachine' }) as ServedType;
const stored = (labels: Record<string, string>) => JSON.stringify({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'a', labels }, spec: {} });
const modified = (): StoreEvent => ({
  type: 'MODIFIED',
  kv: { key: '/registry/kubevirt.io/virtualmachines/default/a', value: stored({ app: 'new' }), modRevision: 9, createRevision: 3 },
  prevValue: stored({ app: 'old' }),
});

it('decodes an event once for every selector watcher of the type: the object after it and before it', () => {
  const v1 = rt('v1');
  const e = modified();
  const d = decodedEvent(v1, e);
  expect(d.object.metadata).toEqual({ name: 'a', labels: { app: 'new' }, resourceVersion: '9' });
  expect(d.previous?.metadata.labels).toEqual({ app: 'old' });
  expect(decodedEvent(v1, e)).toBe(d);
  expect(decodedEvent(v1, modified())).not.toBe(d);
});

it('an ADDED event has no object before it; another served version gets its own apiVersion', () => {
  const e: StoreEvent = { type: 'ADDED', kv: { key: '/k', value: stored({}), modRevision: 4, createRevision: 4 } };
  expect(decodedEvent(rt('v1'), e).previous).toBeUndefined();
  expect(decodedEvent(rt('v1alpha3'), e).object.apiVersion).toBe('kubevirt.io/v1alpha3');
});
