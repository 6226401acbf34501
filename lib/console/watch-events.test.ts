import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../kubevirt';
import { applyWatchEvent, compareResourceVersions, type ObjectList, type WatchEvent } from './watch-events';

const obj = (name: string, rv: string, extra: Record<string, string> = {}): KubeObject => ({
  metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: rv, labels: extra },
});
const list = (rv: string, ...items: KubeObject[]): ObjectList => ({ resourceVersion: rv, items });

describe('applyWatchEvent', () => {
  it.each<[string, ObjectList, WatchEvent, string[], string]>([
    ['adds a new object', list('10', obj('a', '5')), { type: 'ADDED', object: obj('b', '11') }, ['a@5', 'b@11'], '11'],
    ['replaces a newer version', list('10', obj('a', '5')), { type: 'MODIFIED', object: obj('a', '12') }, ['a@12'], '12'],
    ['drops a stale modification', list('10', obj('a', '9')), { type: 'MODIFIED', object: obj('a', '8') }, ['a@9'], '10'],
    ['drops a replay of the held version', list('10', obj('a', '9')), { type: 'MODIFIED', object: obj('a', '9') }, ['a@9'], '10'],
    ['drops an add older than the list', list('10', obj('a', '9')), { type: 'ADDED', object: obj('b', '7') }, ['a@9'], '10'],
    ['deletes a held object', list('10', obj('a', '5'), obj('b', '6')), { type: 'DELETED', object: obj('a', '13') }, ['b@6'], '13'],
    ['ignores a delete of an unknown object', list('10', obj('a', '5')), { type: 'DELETED', object: obj('z', '13') }, ['a@5'], '10'],
    ['ignores a delete older than the held object', list('10', obj('a', '12')), { type: 'DELETED', object: obj('a', '11') }, ['a@12'], '10'],
    ['moves the list revision on a bookmark', list('10', obj('a', '5')), { type: 'BOOKMARK', object: obj('', '20') }, ['a@5'], '20'],
    ['accepts opaque revisions', list('x', obj('a', 'p')), { type: 'MODIFIED', object: obj('a', 'q') }, ['a@q'], 'x'],
  ])('%s', (_name, before, event, items, rv) => {
    const after = applyWatchEvent(before, event);
    expect(after.items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`)).toEqual(items);
    expect(after.resourceVersion).toBe(rv);
  });

  it('returns the same list object when nothing changed, so React skips a render', () => {
    const before = list('10', obj('a', '9'));
    expect(applyWatchEvent(before, { type: 'MODIFIED', object: obj('a', '3') })).toBe(before);
  });

  it('does not mutate the list it was given', () => {
    const before = list('10', obj('a', '5'));
    applyWatchEvent(before, { type: 'ADDED', object: obj('b', '11') });
    expect(before.items).toHaveLength(1);
  });
});

describe('compareResourceVersions', () => {
  it.each([
    ['9', '10', -1], ['10', '9', 1], ['12345678901234567890', '12345678901234567890', 0], ['a', '1', undefined], [undefined, '1', undefined],
  ] as const)('%s vs %s', (a, b, want) => expect(compareResourceVersions(a, b)).toBe(want));
});
