import { expect, it } from 'vitest';
import { LatestIndex } from './latest-index';
import type { KeyValue } from './types';

const kv = (key: string, rev: number): KeyValue => ({ key, value: `${key}@${rev}`, modRevision: rev, createRevision: rev });

it('answers get, list (prefix, startAfter, limit) and count like a sorted scan of the live keys, through random writes', () => {
  let seed = 42;
  const rand = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
  const keys = Array.from({ length: 60 }, (_, i) => `/${['a', 'ab', 'b'][i % 3]}/${String.fromCharCode(97 + (i % 26))}${i}`);
  const model = new Map<string, KeyValue>();
  const index = new LatestIndex([]);
  for (let rev = 1; rev <= 2000; rev++) {
    const key = keys[rand(keys.length)];
    const value = rand(3) === 0 ? undefined : kv(key, rev);
    if (value) model.set(key, value);
    else model.delete(key);
    index.apply(key, value);
    if (rev % 50 !== 0) continue;
    const sorted = [...model.keys()].sort();
    for (const prefix of ['', '/a', '/a/', '/ab/', '/b/', '/c/']) {
      const want = sorted.filter((k) => k.startsWith(prefix));
      expect(index.count(prefix)).toBe(want.length);
      expect(index.list(prefix).map((x) => x.key)).toEqual(want);
      const after = want[rand(want.length + 1)];
      const limit = 1 + rand(5);
      expect(index.list(prefix, { startAfter: after, limit }).map((x) => x.key)).toEqual(want.filter((k) => after === undefined || k > after).slice(0, limit));
    }
    expect(index.get(key)).toEqual(model.get(key));
  }
});

it('starts from the rows it is given, in key order whatever their order', () => {
  const index = new LatestIndex([kv('/p/c', 3), kv('/p/a', 1), kv('/q/a', 2)]);
  expect(index.list('/p/').map((x) => x.key)).toEqual(['/p/a', '/p/c']);
  expect(index.get('/q/a')?.modRevision).toBe(2);
});
