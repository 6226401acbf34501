import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { indexByNodeName, ObjectStore } from './object-store';

const pod = (name: string, rv: string, nodeName?: string, ns = 'default'): V1Pod => ({
  metadata: { name, namespace: ns, resourceVersion: rv, uid: `uid-${name}` },
  spec: { nodeName, containers: [] },
});

describe('ObjectStore', () => {
  it('keys objects namespace/name and reports add then update', () => {
    const s = new ObjectStore<V1Pod>();
    expect(s.upsert(pod('a', '1'))?.type).toBe('add');
    const ev = s.upsert(pod('a', '2'));
    expect(ev).toMatchObject({ type: 'update', old: { metadata: { resourceVersion: '1' } }, obj: { metadata: { resourceVersion: '2' } } });
    expect(s.get('default/a')?.metadata?.resourceVersion).toBe('2');
  });

  it('reports nothing for the same resourceVersion (a relist of unchanged objects)', () => {
    const s = new ObjectStore<V1Pod>();
    s.upsert(pod('a', '1'));
    expect(s.upsert(pod('a', '1'))).toBeUndefined();
  });

  it('re-files an object in its index when the indexed value changes', () => {
    const s = new ObjectStore<V1Pod>({ node: indexByNodeName });
    s.upsert(pod('a', '1'));
    s.upsert(pod('b', '1', 'node-1'));
    s.upsert(pod('a', '2', 'node-1'));
    expect(s.byIndex('node', 'node-1').map((p) => p.metadata?.name).sort()).toEqual(['a', 'b']);
    s.upsert(pod('a', '3', 'node-2'));
    expect(s.byIndex('node', 'node-1').map((p) => p.metadata?.name)).toEqual(['b']);
    s.remove(pod('b', '2', 'node-1'));
    expect(s.byIndex('node', 'node-1')).toEqual([]);
  });

  it('replace emits deletes for objects missing from the new list and changes for the rest', () => {
    const s = new ObjectStore<V1Pod>({ node: indexByNodeName });
    s.upsert(pod('a', '1', 'n'));
    s.upsert(pod('b', '1', 'n'));
    s.upsert(pod('c', '1', 'n'));
    const events = s.replace([pod('a', '1', 'n'), pod('b', '5', 'n'), pod('d', '5', 'n')]);
    expect(events.map((e) => `${e.type}:${e.obj.metadata?.name}`).sort()).toEqual(['add:d', 'delete:c', 'update:b']);
    expect(s.keys().sort()).toEqual(['default/a', 'default/b', 'default/d']);
    expect(s.byIndex('node', 'n')).toHaveLength(3);
  });

  it('throws for an unknown index name (a typo must not look like an empty result)', () => {
    expect(() => new ObjectStore<V1Pod>().byIndex('nope', 'x')).toThrow(/unknown index/);
  });
});
