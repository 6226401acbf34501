import { describe, expect, it } from 'vitest';
import { GroupCommit, type Transact } from './group-commit';

class Refused extends Error {}

/** a fake database: a list of applied values, a journal of BEGIN/COMMIT/ROLLBACK */
function fakeDb() {
  const journal: string[] = [];
  let committed: string[] = [];
  let working: string[] = [];
  const transact: Transact = (fn) => {
    journal.push('BEGIN');
    working = committed.slice();
    try {
      fn();
    } catch (err) {
      journal.push('ROLLBACK');
      throw err;
    }
    committed = working;
    journal.push('COMMIT');
  };
  return { journal, transact, put: (v: string) => { working.push(v); journal.push(`put ${v}`); return working.length; }, committed: () => committed };
}

/** a scheduler the test runs by hand: one "loop turn" per run() */
function manualSchedule() {
  const queued: Array<() => void> = [];
  return { schedule: (fn: () => void) => { queued.push(fn); }, run: () => queued.splice(0).forEach((fn) => fn()), pending: () => queued.length };
}

const isWriteError = (err: unknown) => err instanceof Refused;

describe('GroupCommit', () => {
  it('commits every write submitted in one turn together, in submission order', async () => {
    const db = fakeDb();
    const turn = manualSchedule();
    const gc = new GroupCommit(db.transact, { isWriteError, schedule: turn.schedule });
    const ps = ['a', 'b', 'c'].map((v) => gc.submit(() => db.put(v)));
    expect(turn.pending()).toBe(1);
    expect(db.journal).toEqual([]);
    turn.run();
    expect(await Promise.all(ps)).toEqual([1, 2, 3]);
    expect(db.journal).toEqual(['BEGIN', 'put a', 'put b', 'put c', 'COMMIT']);
    expect(gc.stats()).toMatchObject({ batches: 1, writes: 3 });
  });

  it('a write refused by its own checks fails alone; the others commit', async () => {
    const db = fakeDb();
    const turn = manualSchedule();
    const gc = new GroupCommit(db.transact, { isWriteError, schedule: turn.schedule });
    const ok1 = gc.submit(() => db.put('a'));
    const bad = gc.submit(() => { throw new Refused('conflict'); });
    const ok2 = gc.submit(() => db.put('b'));
    turn.run();
    await expect(bad).rejects.toThrow(Refused);
    expect([await ok1, await ok2]).toEqual([1, 2]);
    expect(db.committed()).toEqual(['a', 'b']);
  });

  it('any other error rolls the whole batch back and rejects every write in it; the next batch works', async () => {
    const db = fakeDb();
    const turn = manualSchedule();
    const gc = new GroupCommit(db.transact, { isWriteError, schedule: turn.schedule });
    const batch = [gc.submit(() => db.put('a')), gc.submit(() => { throw new Error('disk I/O error'); }), gc.submit(() => db.put('b'))];
    turn.run();
    for (const p of batch) await expect(p).rejects.toThrow('disk I/O error');
    expect(db.committed()).toEqual([]);
    const later = gc.submit(() => db.put('c'));
    turn.run();
    expect(await later).toBe(1);
    expect(db.journal.slice(-3)).toEqual(['BEGIN', 'put c', 'COMMIT']);
  });

  it('a failed COMMIT acknowledges nothing and runs no after-commit step', async () => {
    const turn = manualSchedule();
    const published: number[] = [];
    const gc = new GroupCommit((fn) => { fn(); throw new Error('fsync failed'); }, { isWriteError, schedule: turn.schedule });
    const p = gc.submit(() => 1, (v) => published.push(v));
    turn.run();
    await expect(p).rejects.toThrow('fsync failed');
    expect(published).toEqual([]);
  });

  it('after-commit steps run after COMMIT, in order, before any promise settles', async () => {
    const db = fakeDb();
    const turn = manualSchedule();
    const gc = new GroupCommit(db.transact, { isWriteError, schedule: turn.schedule });
    const order: string[] = [];
    const ps = ['a', 'b'].map((v) => gc.submit(() => db.put(v), () => order.push(`publish ${v} after ${db.journal.at(-1)}`)).then(() => order.push(`ack ${v}`)));
    turn.run();
    await Promise.all(ps);
    expect(order).toEqual(['publish a after COMMIT', 'publish b after COMMIT', 'ack a', 'ack b']);
  });

  it('writes submitted while a batch commits go to the next batch', async () => {
    const db = fakeDb();
    const turn = manualSchedule();
    const gc = new GroupCommit(db.transact, { isWriteError, schedule: turn.schedule });
    let inner: Promise<number> | undefined;
    const outer = gc.submit(() => { inner = gc.submit(() => db.put('second')); return db.put('first'); });
    turn.run();
    expect(await outer).toBe(1);
    expect(turn.pending()).toBe(1);
    turn.run();
    expect(await inner).toBe(2);
    expect(gc.stats()).toMatchObject({ batches: 2, writes: 2 });
  });

  it('flush commits what is queued at once (closing the store)', async () => {
    const db = fakeDb();
    const gc = new GroupCommit(db.transact, { isWriteError, schedule: () => undefined });
    const p = gc.submit(() => db.put('a'));
    gc.flush();
    expect(await p).toBe(1);
    expect(db.committed()).toEqual(['a']);
  });

  describe('with a sync apart from the COMMIT (the SQLite driver)', () => {
    /** syncs the test completes by hand */
    function manualSync() {
      const calls: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
      const sync = () => new Promise<void>((resolve, reject) => { calls.push({ resolve, reject }); });
      return { sync, calls };
    }
    const tick = () => new Promise((r) => setImmediate(r));

    it('acknowledges nothing and publishes nothing until the sync after the COMMIT returned', async () => {
      const db = fakeDb();
      const turn = manualSchedule();
      const s = manualSync();
      const gc = new GroupCommit(db.transact, { isWriteError, schedule: turn.schedule, sync: s.sync });
      const events: string[] = [];
      const p = gc.submit(() => db.put('a'), () => events.push('published')).then((v) => { events.push('acked'); return v; });
      turn.run();
      expect(db.journal.at(-1)).toBe('COMMIT');
      expect(s.calls).toHaveLength(1);
      await tick();
      expect(events).toEqual([]);
      s.calls[0].resolve();
      expect(await p).toBe(1);
      expect(events).toEqual(['published', 'acked']);
    });

    it('writes submitted while a sync runs commit together when it returns, share the next sync and settle in order', async () => {
      const db = fakeDb();
      const turn = manualSchedule();
      const s = manualSync();
      const gc = new GroupCommit(db.transact, { isWriteError, schedule: turn.schedule, sync: s.sync });
      const acked: string[] = [];
      const submit = (v: string) => gc.submit(() => db.put(v)).then(() => acked.push(v));
      const all = [submit('a')];
      turn.run(); // batch 1 committed, sync 1 running
      all.push(submit('b'));
      turn.run(); // b waits for sync 1
      all.push(submit('c'));
      turn.run(); // so does c
      expect(db.journal).toEqual(['BEGIN', 'put a', 'COMMIT']);
      expect(s.calls).toHaveLength(1);
      s.calls[0].resolve();
      await tick();
      expect(acked).toEqual(['a']);
      expect(db.journal).toEqual(['BEGIN', 'put a', 'COMMIT', 'BEGIN', 'put b', 'put c', 'COMMIT']);
      expect(s.calls).toHaveLength(2); // one sync for b and c, started after their COMMIT
      await tick();
      expect(acked).toEqual(['a']);
      s.calls[1].resolve();
      await Promise.all(all);
      expect(acked).toEqual(['a', 'b', 'c']);
      expect(gc.stats()).toEqual({ batches: 2, writes: 3, syncs: 2 });
    });

    it('a write refused by its checks while it waited for a sync fails alone', async () => {
      const db = fakeDb();
      const turn = manualSchedule();
      const s = manualSync();
      const gc = new GroupCommit(db.transact, { isWriteError, schedule: turn.schedule, sync: s.sync });
      const a = gc.submit(() => db.put('a'));
      turn.run();
      const bad = gc.submit(() => { throw new Refused('exists'); });
      const b = gc.submit(() => db.put('b'));
      turn.run();
      s.calls[0].resolve();
      await tick();
      expect(s.calls).toHaveLength(2);
      s.calls[1].resolve();
      await expect(bad).rejects.toThrow(Refused);
      expect([await a, await b]).toEqual([1, 2]);
      expect(db.committed()).toEqual(['a', 'b']);
    });

    it('a failed sync also refuses the writes waiting for it, without committing them', async () => {
      const db = fakeDb();
      const turn = manualSchedule();
      const s = manualSync();
      const gc = new GroupCommit(db.transact, { isWriteError, schedule: turn.schedule, sync: s.sync });
      const p = gc.submit(() => db.put('a'));
      turn.run();
      const waiting = gc.submit(() => db.put('b'));
      turn.run();
      s.calls[0].reject(new Error('EIO'));
      await expect(p).rejects.toThrow('EIO');
      await expect(waiting).rejects.toThrow('EIO');
      expect(db.committed()).toEqual(['a']);
      expect(s.calls).toHaveLength(1);
    });

    it('a failed sync rejects the writes it covered and refuses every later one', async () => {
      const db = fakeDb();
      const turn = manualSchedule();
      const s = manualSync();
      const gc = new GroupCommit(db.transact, { isWriteError, schedule: turn.schedule, sync: s.sync });
      const p = gc.submit(() => db.put('a'));
      turn.run();
      s.calls[0].reject(new Error('EIO'));
      await expect(p).rejects.toThrow('EIO');
      await expect(gc.submit(() => db.put('b'))).rejects.toThrow('EIO');
    });

    it('drain commits and syncs at once (closing the store), also under a running sync', async () => {
      const db = fakeDb();
      const turn = manualSchedule();
      const s = manualSync();
      let syncedNow = 0;
      const gc = new GroupCommit(db.transact, { isWriteError, schedule: turn.schedule, sync: s.sync, syncNow: () => { syncedNow++; } });
      const first = gc.submit(() => db.put('a'));
      turn.run();
      const second = gc.submit(() => db.put('b'));
      gc.drain();
      expect(syncedNow).toBe(1);
      expect([await first, await second]).toEqual([1, 2]);
      s.calls[0].reject(new Error('EBADF')); // the old sync failing on the closed file changes nothing
      await tick();
      expect(db.committed()).toEqual(['a', 'b']);
    });
  });
});
