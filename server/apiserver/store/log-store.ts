import { Broadcaster, DEFAULT_WATCH_BUFFER_LIMIT } from './broadcaster';
import { DuplicateRevisionError, type LogBackend } from './log-backend';
import { GroupCommit } from './group-commit';
import { LatestIndex } from './latest-index';
import { toKeyValue, type LogRow, type NewLogRow } from './log-row';
import { AlreadyExistsError, CompactedError, ConflictError, NotFoundError, type Store } from './types';

export interface LogStoreOptions {
  /** live events a watcher may have pending before it is dropped */
  watchBufferLimit?: number;
}

/**
 * The Store contract over any LogBackend: CAS rules (the backend's unique
 * (key, prevRevision) has the last word), writes group-committed (group-commit.ts), events
 * published after the commit, reads served from the committed live keys in memory
 * (latest-index.ts), watch, compaction.
 */
const isWriteError = (err: unknown) => err instanceof AlreadyExistsError || err instanceof ConflictError || err instanceof NotFoundError;

export function createLogStore(backend: LogBackend, opts: LogStoreOptions = {}): Store {
  const broadcaster = new Broadcaster((q) => backend.readRowsAfter(q), opts.watchBufferLimit ?? DEFAULT_WATCH_BUFFER_LIMIT);
  const index = new LatestIndex(backend.listLatestRows('', {}).map(toKeyValue));
  const commits = new GroupCommit((fn) => backend.transaction(fn), {
    isWriteError,
    sync: backend.sync && (() => backend.sync!()),
    syncNow: backend.syncNow && (() => backend.syncNow!()),
  });
  /** the newest revision that is durable: what reads, lists and new watches are based on */
  let durableRevision = backend.currentRevision();
  let closed = false;

  /** runs a write's checks and append inside the next group commit; its event is published after the commit */
  function write<T>(apply: () => { row: LogRow; result: T }): Promise<T> {
    if (closed) return Promise.reject(new Error('store is closed'));
    return commits.submit(apply, ({ row }) => {
      durableRevision = row.id;
      index.apply(row.name, row.deleted ? undefined : toKeyValue(row));
      broadcaster.publish(row);
    }).then((w) => w.result);
  }

  function append(row: NewLogRow, onLostRace: () => Error): LogRow {
    try {
      return backend.appendRow(row);
    } catch (err) {
      if (err instanceof DuplicateRevisionError) throw onLostRace();
      throw err;
    }
  }

  function liveRow(key: string): LogRow {
    const row = backend.latestRow(key);
    if (!row || row.deleted) throw new NotFoundError(key);
    return row;
  }

  return {
    currentRevision: () => durableRevision,
    compactRevision: () => backend.compactRevision(),

    get: (key) => index.get(key),

    list(prefix, listOpts = {}) {
      const revision = durableRevision;
      const limit = listOpts.limit && listOpts.limit > 0 ? listOpts.limit : undefined;
      const items = index.list(prefix, { startAfter: listOpts.startAfter, limit: limit && limit + 1 });
      const more = limit !== undefined && items.length > limit;
      return { items: more ? items.slice(0, limit) : items, revision, more };
    },

    count: (prefix) => index.count(prefix),

    create: (key, value) => write(() => {
      const prev = backend.latestRow(key);
      if (prev && !prev.deleted) throw new AlreadyExistsError(key);
      const row = append({ name: key, created: true, deleted: false, createRevision: 0, prevRevision: prev?.id ?? 0, value, oldValue: null }, () => new AlreadyExistsError(key));
      return { row, result: row.id };
    }),

    update: (key, value, expectedModRevision) => write(() => {
      const prev = liveRow(key);
      if (prev.id !== expectedModRevision) throw new ConflictError(key);
      const row = append({ name: key, created: false, deleted: false, createRevision: prev.createRevision, prevRevision: prev.id, value, oldValue: prev.value }, () => new ConflictError(key));
      return { row, result: row.id };
    }),

    delete: (key, expectedModRevision) => write(() => {
      const prev = liveRow(key);
      if (expectedModRevision !== undefined && prev.id !== expectedModRevision) throw new ConflictError(key);
      const row = append({ name: key, created: false, deleted: true, createRevision: prev.createRevision, prevRevision: prev.id, value: prev.value, oldValue: prev.value }, () => new ConflictError(key));
      return { row, result: { revision: row.id, prev: toKeyValue(prev) } };
    }),

    watch(prefix, watchOpts) {
      if (watchOpts.signal.aborted) return;
      const current = durableRevision;
      const after = watchOpts.afterRevision > 0 ? watchOpts.afterRevision : current;
      if (after < backend.compactRevision()) throw new CompactedError(backend.compactRevision());
      broadcaster.add(prefix, watchOpts, after, current);
    },

    compact(rev) {
      const target = Math.min(rev, durableRevision);
      if (target <= backend.compactRevision()) return;
      backend.compactRows(target);
      broadcaster.dropReplayingBelow(target);
    },

    commitStats: () => commits.stats(),

    close() {
      if (closed) return;
      commits.drain();
      closed = true;
      broadcaster.closeAll();
      backend.close();
    },
  };
}
