import { Broadcaster, DEFAULT_WATCH_BUFFER_LIMIT } from './broadcaster';
import { DuplicateRevisionError, type LogBackend } from './log-backend';
import { toKeyValue, type LogRow, type NewLogRow } from './log-row';
import { AlreadyExistsError, CompactedError, ConflictError, NotFoundError, type Store } from './types';

export interface LogStoreOptions {
  /** live events a watcher may have pending before it is dropped */
  watchBufferLimit?: number;
}

/**
 * The Store contract over any LogBackend: CAS rules (the backend's unique
 * (key, prevRevision) has the last word), events published on commit, watch, compaction.
 */
export function createLogStore(backend: LogBackend, opts: LogStoreOptions = {}): Store {
  const broadcaster = new Broadcaster((q) => backend.readRowsAfter(q), opts.watchBufferLimit ?? DEFAULT_WATCH_BUFFER_LIMIT);
  let closed = false;

  function append(row: NewLogRow, onLostRace: () => Error): LogRow {
    if (closed) throw new Error('store is closed');
    let written: LogRow;
    try {
      written = backend.appendRow(row);
    } catch (err) {
      if (err instanceof DuplicateRevisionError) throw onLostRace();
      throw err;
    }
    broadcaster.publish(written);
    return written;
  }

  function liveRow(key: string): LogRow {
    const row = backend.latestRow(key);
    if (!row || row.deleted) throw new NotFoundError(key);
    return row;
  }

  return {
    currentRevision: () => backend.currentRevision(),
    compactRevision: () => backend.compactRevision(),

    get(key) {
      const row = backend.latestRow(key);
      return row && !row.deleted ? toKeyValue(row) : undefined;
    },

    list(prefix, listOpts = {}) {
      const revision = backend.currentRevision();
      const limit = listOpts.limit && listOpts.limit > 0 ? listOpts.limit : undefined;
      const rows = backend.listLatestRows(prefix, { startAfter: listOpts.startAfter, limit: limit && limit + 1 });
      const more = limit !== undefined && rows.length > limit;
      return { items: (more ? rows.slice(0, limit) : rows).map(toKeyValue), revision, more };
    },

    count: (prefix) => backend.countLatestRows(prefix),

    create(key, value) {
      const prev = backend.latestRow(key);
      if (prev && !prev.deleted) throw new AlreadyExistsError(key);
      const row = { name: key, created: true, deleted: false, createRevision: 0, prevRevision: prev?.id ?? 0, value, oldValue: null };
      return append(row, () => new AlreadyExistsError(key)).id;
    },

    update(key, value, expectedModRevision) {
      const prev = liveRow(key);
      if (prev.id !== expectedModRevision) throw new ConflictError(key);
      const row = { name: key, created: false, deleted: false, createRevision: prev.createRevision, prevRevision: prev.id, value, oldValue: prev.value };
      return append(row, () => new ConflictError(key)).id;
    },

    delete(key, expectedModRevision) {
      const prev = liveRow(key);
      if (expectedModRevision !== undefined && prev.id !== expectedModRevision) throw new ConflictError(key);
      const row = { name: key, created: false, deleted: true, createRevision: prev.createRevision, prevRevision: prev.id, value: prev.value, oldValue: prev.value };
      return { revision: append(row, () => new ConflictError(key)).id, prev: toKeyValue(prev) };
    },

    watch(prefix, watchOpts) {
      if (watchOpts.signal.aborted) return;
      const current = backend.currentRevision();
      const after = watchOpts.afterRevision > 0 ? watchOpts.afterRevision : current;
      if (after < backend.compactRevision()) throw new CompactedError(backend.compactRevision());
      broadcaster.add(prefix, watchOpts, after, current);
    },

    compact(rev) {
      const target = Math.min(rev, backend.currentRevision());
      if (target <= backend.compactRevision()) return;
      backend.compactRows(target);
      broadcaster.dropReplayingBelow(target);
    },

    close() {
      if (closed) return;
      closed = true;
      broadcaster.closeAll();
      backend.close();
    },
  };
}
