import { afterEach, describe, expect, it } from 'vitest';
import type { LogStoreOptions } from './log-store';
import { AlreadyExistsError, CompactedError, ConflictError, NotFoundError, type Store } from './types';
import { recordWatch, waitForCondition } from './watch-recorder';

export interface StoreDriver {
  /** a fresh, empty store */
  open(opts?: LogStoreOptions): Store;
  /** closes the store and opens the same data again (durable drivers only) */
  reopen?(store: Store): Store;
}

const obj = (name: string, v = 1) => JSON.stringify({ metadata: { name }, v });

/** The one behaviour suite every Store driver must pass. */
export function describeStoreContract(driverName: string, driver: StoreDriver): void {
  describe(`Store contract: ${driverName}`, () => {
    const opened: Store[] = [];
    const open = (opts?: LogStoreOptions) => {
      const s = driver.open(opts);
      opened.push(s);
      return s;
    };
    afterEach(() => {
      for (const s of opened.splice(0)) s.close();
    });

    it('create stamps increasing revisions and get returns the value', async () => {
      const s = open();
      const r1 = await s.create('/pods/ns/a', obj('a'));
      const r2 = await s.create('/pods/ns/b', obj('b'));
      expect(r2).toBeGreaterThan(r1);
      expect(s.get('/pods/ns/a')).toEqual({ key: '/pods/ns/a', value: obj('a'), modRevision: r1, createRevision: r1 });
      expect(s.get('/pods/ns/zz')).toBeUndefined();
      expect(s.currentRevision()).toBe(r2);
    });

    it('update is a compare-and-swap on modRevision', async () => {
      const s = open();
      const r1 = await s.create('/k', obj('k', 1));
      const r2 = await s.update('/k', obj('k', 2), r1);
      expect(s.get('/k')).toEqual({ key: '/k', value: obj('k', 2), modRevision: r2, createRevision: r1 });
      await expect(s.update('/k', obj('k', 3), r1)).rejects.toThrow(ConflictError);
      expect(s.get('/k')?.value).toBe(obj('k', 2));
    });

    it.each([
      ['create of an existing key', (s: Store) => s.create('/x', 'again'), AlreadyExistsError],
      ['update of a missing key', (s: Store) => s.update('/missing', 'v', 1), NotFoundError],
      ['update of a deleted key', (s: Store) => s.update('/gone', 'v', s.currentRevision()), NotFoundError],
      ['delete of a missing key', (s: Store) => s.delete('/missing'), NotFoundError],
      ['delete of a deleted key', (s: Store) => s.delete('/gone'), NotFoundError],
      ['delete with a stale revision', (s: Store) => s.delete('/x', 1), ConflictError],
    ])('%s is refused', async (_name, act, errorType) => {
      const s = open();
      await s.create('/gone', 'g');
      await s.delete('/gone');
      await s.update('/x', 'x2', await s.create('/x', 'x1'));
      const before = s.currentRevision();
      await expect(act(s)).rejects.toThrow(errorType);
      expect(s.currentRevision()).toBe(before);
    });

    it('concurrent writes share a commit, in submission order, each checked against the ones before it', async () => {
      const s = open();
      const base = await s.create('/b/k', 'v0');
      const before = s.commitStats();
      const results = await Promise.allSettled([
        s.create('/b/a', 'a'),
        s.update('/b/k', 'v1', base),
        s.update('/b/k', 'v2', base), // same precondition as the one before it: loses
        s.create('/b/a', 'again'), // the create two writes earlier already made it
        s.delete('/b/missing'),
        s.create('/b/c', 'c'),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled']);
      const reasons = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(reasons[0]).toBeInstanceOf(ConflictError);
      expect(reasons[1]).toBeInstanceOf(AlreadyExistsError);
      expect(reasons[2]).toBeInstanceOf(NotFoundError);
      const revs = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      expect(revs).toEqual([base + 1, base + 2, base + 3]);
      expect(s.commitStats()).toMatchObject({ batches: before.batches + 1, writes: before.writes + 6 });
      expect([s.get('/b/a')?.value, s.get('/b/k')?.value, s.get('/b/c')?.value]).toEqual(['a', 'v1', 'c']);
      expect(s.currentRevision()).toBe(base + 3);
    });

    it('a write is invisible until its commit, and its watch event comes before its promise settles', async () => {
      const s = open();
      const seenAtResolve: number[] = [];
      const rec = recordWatch(s, '/v/');
      const pending = s.create('/v/k', 'v');
      expect(s.get('/v/k')).toBeUndefined();
      expect(s.list('/v/').items).toEqual([]);
      const rev = await pending.then((r) => { seenAtResolve.push(rec.events.length); return r; });
      expect(s.get('/v/k')?.modRevision).toBe(rev);
      await rec.waitFor(() => rec.events.length === 1);
      expect(rec.lines()).toEqual([`ADDED /v/k@${rev}`]);
      expect(seenAtResolve).toEqual([1]);
    });

    it('delete leaves a tombstone and a key can be created again', async () => {
      const s = open();
      const r1 = await s.create('/k', 'v1');
      const del = await s.delete('/k', r1);
      expect(del.prev).toEqual({ key: '/k', value: 'v1', modRevision: r1, createRevision: r1 });
      expect(del.revision).toBeGreaterThan(r1);
      expect(s.get('/k')).toBeUndefined();
      const r3 = await s.create('/k', 'v2');
      expect(s.get('/k')).toEqual({ key: '/k', value: 'v2', modRevision: r3, createRevision: r3 });
    });

    it('list returns live keys under the prefix in key order', async () => {
      const s = open();
      for (const k of ['/p/c', '/p/a', '/px/z', '/p/b', '/o/a']) await s.create(k, k);
      await s.delete('/p/b');
      const res = s.list('/p/');
      expect(res.items.map((kv) => kv.key)).toEqual(['/p/a', '/p/c']);
      expect(res).toMatchObject({ revision: s.currentRevision(), more: false });
      expect(s.count('/p/')).toBe(2);
      expect(s.count('')).toBe(4);
    });

    it.each([1, 2, 3, 7, 100])('paging with limit %i walks every key once, in order', async (limit) => {
      const s = open();
      const keys = Array.from({ length: 7 }, (_, i) => `/l/${String.fromCharCode(103 - i)}`);
      for (const k of keys) await s.create(k, k);
      const seen: string[] = [];
      let startAfter: string | undefined;
      for (let page = 0; page < 10; page++) {
        const res = s.list('/l/', { limit, startAfter });
        seen.push(...res.items.map((kv) => kv.key));
        expect(res.items.length).toBeLessThanOrEqual(limit);
        if (!res.more) break;
        startAfter = res.items[res.items.length - 1].key;
      }
      expect(seen).toEqual([...keys].sort());
    });

    it('watch replays the log after a revision, then streams live events, in order', async () => {
      const s = open();
      await s.create('/w/other', 'o');
      const r1 = await s.create('/w/a', 'a1');
      const r2 = await s.update('/w/a', 'a2', r1);
      await s.create('/x/not-watched', 'n');
      const rec = recordWatch(s, '/w/', { afterRevision: r1 });
      const r3 = await s.create('/w/b', 'b1');
      const del = await s.delete('/w/a');
      await rec.waitFor(() => rec.events.length >= 3);
      expect(rec.lines()).toEqual([`MODIFIED /w/a@${r2}`, `ADDED /w/b@${r3}`, `DELETED /w/a@${del.revision}`]);
      expect(rec.events[0].prevValue).toBe('a1');
      expect(rec.events[2].kv.value).toBe('a2');
      expect(rec.events[2].prevValue).toBe('a2');
      rec.stop();
    });

    it('watch from revision 0 sees only future events', async () => {
      const s = open();
      await s.create('/w/old', 'o');
      const rec = recordWatch(s, '/w/');
      const r = await s.create('/w/new', 'n');
      await rec.waitFor(() => rec.events.length >= 1);
      expect(rec.lines()).toEqual([`ADDED /w/new@${r}`]);
    });

    it('watch from a revision not yet reached starts after it', async () => {
      const s = open();
      const rec = recordWatch(s, '/w/', { afterRevision: await s.create('/w/now', 'n') + 2 });
      await s.create('/w/1', 'v');
      await s.create('/w/2', 'v');
      const r = await s.create('/w/3', 'v');
      await rec.waitFor(() => rec.events.length >= 1);
      expect(rec.lines()).toEqual([`ADDED /w/3@${r}`]);
    });

    it('a slow replay has no gap and no duplicate with writes made meanwhile', async () => {
      const s = open();
      await Promise.all(Array.from({ length: 1200 }, (_, i) => s.create(`/g/${i}`, 'v')));
      const slow = () => new Promise<void>((resolve) => setImmediate(resolve));
      const rec = recordWatch(s, '/g/', { afterRevision: 1, onEvent: slow });
      for (let i = 0; i < 300; i++) {
        await s.update(`/g/${i}`, 'v2', s.get(`/g/${i}`)!.modRevision);
        if (i % 50 === 0) await slow();
      }
      await rec.waitFor(() => rec.events.length >= 1499, 20_000);
      const revs = rec.events.map((e) => e.kv.modRevision);
      expect(revs).toEqual(Array.from({ length: 1499 }, (_, i) => i + 2));
    });

    it('a watcher still replaying when the log is compacted under it is dropped', async () => {
      const s = open();
      await Promise.all(Array.from({ length: 1200 }, async (_, i) => s.update(`/g/${i}`, 'v2', await s.create(`/g/${i}`, 'v1'))));
      const rec = recordWatch(s, '/g/', { afterRevision: 1, onEvent: () => new Promise<void>((resolve) => setImmediate(resolve)) });
      await rec.waitFor(() => rec.events.length > 0);
      s.compact(s.currentRevision());
      await rec.waitFor(() => rec.dropped);
      expect(rec.events.length).toBeLessThan(2399);
    });

    it('an aborted watch gets no more events', async () => {
      const s = open();
      const rec = recordWatch(s, '/a/');
      await s.create('/a/1', 'v');
      await rec.waitFor(() => rec.events.length === 1);
      rec.stop();
      await s.create('/a/2', 'v');
      const fresh = recordWatch(s, '/a/', { afterRevision: 1 });
      await fresh.waitFor(() => fresh.events.length === 1);
      expect(rec.events).toHaveLength(1);
    });

    it('a consumer that falls too far behind is dropped, others keep going', async () => {
      const s = open({ watchBufferLimit: 10 });
      const stuck = recordWatch(s, '/d/', { onEvent: () => new Promise<void>(() => undefined) });
      const fine = recordWatch(s, '/d/');
      for (let i = 0; i < 30; i++) {
        await s.create(`/d/${i}`, 'v');
        if (i % 5 === 4) await waitForCondition(() => fine.events.length === i + 1);
      }
      await waitForCondition(() => stuck.dropped && fine.events.length === 30);
      expect(stuck.events).toHaveLength(1);
      expect(fine.dropped).toBe(false);
    });

    it('compaction keeps current state and refuses watches from before it', async () => {
      const s = open();
      const r1 = await s.create('/c/a', 'a1');
      await s.update('/c/a', 'a2', r1);
      await s.create('/c/b', 'b1');
      await s.delete('/c/b');
      const keep = await s.create('/c/c', 'c1');
      const rev = s.currentRevision();
      s.compact(keep - 1);
      expect(s.compactRevision()).toBe(keep - 1);
      expect(s.currentRevision()).toBe(rev);
      expect(s.list('/c/').items.map((kv) => [kv.key, kv.value])).toEqual([['/c/a', 'a2'], ['/c/c', 'c1']]);
      expect(() => recordWatch(s, '/c/', { afterRevision: keep - 2 })).toThrow(CompactedError);
      const rec = recordWatch(s, '/c/', { afterRevision: keep - 1 });
      const recreated = await s.create('/c/b', 'b2');
      await rec.waitFor(() => rec.events.length === 2);
      expect(rec.lines()).toEqual([`ADDED /c/c@${keep}`, `ADDED /c/b@${recreated}`]);
    });

    it.runIf(driver.reopen)('revisions keep increasing across a reopen, even after compacting the newest row', async () => {
      let s = open();
      const r1 = await s.create('/r/a', 'a');
      const tomb = (await s.delete('/r/a')).revision;
      s.compact(tomb);
      s = driver.reopen!(s);
      opened.push(s);
      expect(s.currentRevision()).toBe(tomb);
      expect(s.compactRevision()).toBe(tomb);
      expect(s.get('/r/a')).toBeUndefined();
      expect(await s.create('/r/a', 'again')).toBeGreaterThan(tomb);
      expect(r1).toBeLessThan(tomb);
    });
  });
}
