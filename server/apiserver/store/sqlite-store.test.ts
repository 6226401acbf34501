import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from './sqlite-store';
import { describeStoreContract } from './store-contract';
import type { Store } from './types';
import { recordWatch } from './watch-recorder';

const dir = mkdtempSync(join(tmpdir(), 'kv-store-'));
const paths = new WeakMap<Store, string>();
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeStoreContract('sqlite', {
  open(opts) {
    const path = join(dir, `state-${n++}.db`);
    const s = openSqliteStore(path, opts);
    paths.set(s, path);
    return s;
  },
  reopen(s) {
    const path = paths.get(s)!;
    s.close();
    const again = openSqliteStore(path);
    paths.set(again, path);
    return again;
  },
});

describe('sqlite: durability before visibility', () => {
  it('a committed write stays invisible (GET, LIST, revision, new watches) until the WAL sync after it returned', async () => {
    const s = openSqliteStore(join(dir, `sync-${n++}.db`));
    try {
      const pending = s.create('/s/k', 'v');
      // the batch runs in the first setImmediate; this one follows it in the same phase, before
      // the fdatasync on the thread pool can report back
      await new Promise((resolve) => setImmediate(resolve));
      expect(s.commitStats()).toEqual({ batches: 1, writes: 1, syncs: 0 });
      expect(s.get('/s/k')).toBeUndefined();
      expect(s.list('/s/').items).toEqual([]);
      expect(s.currentRevision()).toBe(0);
      const rec = recordWatch(s, '/s/');
      const rev = await pending;
      expect(s.commitStats().syncs).toBe(1);
      expect(s.get('/s/k')?.modRevision).toBe(rev);
      await rec.waitFor(() => rec.events.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(rec.lines()).toEqual([`ADDED /s/k@${rev}`]);
    } finally {
      s.close();
    }
  });
});
