import { DuplicateRevisionError, type ListLatestOptions, type LogBackend } from './log-backend';
import { hasPrefix, type LogRow, type NewLogRow } from './log-row';
import { searchFirst } from './search-first';

/** The log kept in arrays: rows ordered by id, live keys kept sorted for lists. */
export function createMemoryBackend(): LogBackend {
  let rows: LogRow[] = [];
  const latest = new Map<string, LogRow>();
  const liveKeys: string[] = [];
  let revision = 0;
  let compacted = 0;
  /** what the running transaction appended (for its rollback) */
  let undo: { appended: LogRow[]; prevs: Array<LogRow | undefined> } | undefined;

  const insertLiveKey = (key: string) => liveKeys.splice(searchFirst(liveKeys, (k) => k >= key), 0, key);
  const removeLiveKey = (key: string) => liveKeys.splice(searchFirst(liveKeys, (k) => k >= key), 1);

  function appendRow(newRow: NewLogRow): LogRow {
    const prev = latest.get(newRow.name);
    if ((prev?.id ?? 0) !== newRow.prevRevision) throw new DuplicateRevisionError(newRow.name, newRow.prevRevision);
    revision += 1;
    const row: LogRow = { ...newRow, id: revision, createRevision: newRow.created ? revision : newRow.createRevision };
    rows.push(row);
    undo?.appended.push(row);
    undo?.prevs.push(prev);
    latest.set(row.name, row);
    const wasLive = prev !== undefined && !prev.deleted;
    if (!wasLive && !row.deleted) insertLiveKey(row.name);
    if (wasLive && row.deleted) removeLiveKey(row.name);
    return row;
  }

  function listLatestRows(prefix: string, opts: ListLatestOptions): LogRow[] {
    const from = opts.startAfter !== undefined && opts.startAfter >= prefix ? opts.startAfter : undefined;
    let i = from === undefined ? searchFirst(liveKeys, (k) => k >= prefix) : searchFirst(liveKeys, (k) => k > from);
    const out: LogRow[] = [];
    const limit = opts.limit ?? Infinity;
    for (; i < liveKeys.length && out.length < limit && hasPrefix(liveKeys[i], prefix); i++) {
      out.push(latest.get(liveKeys[i])!);
    }
    return out;
  }

  function readRowsAfter(q: { prefix: string; after: number; until: number; limit: number }): LogRow[] {
    const out: LogRow[] = [];
    for (let i = searchFirst(rows, (r) => r.id > q.after); i < rows.length && rows[i].id <= q.until && out.length < q.limit; i++) {
      if (hasPrefix(rows[i].name, q.prefix)) out.push(rows[i]);
    }
    return out;
  }

  function compactRows(rev: number): void {
    const superseded = new Set<number>();
    for (const r of rows) if (r.id > compacted && r.id <= rev) superseded.add(r.prevRevision);
    rows = rows.filter((r) => !superseded.has(r.id) && !(r.deleted && r.id > compacted && r.id <= rev));
    for (const [key, r] of latest) if (r.deleted && r.id <= rev) latest.delete(key);
    compacted = rev;
  }

  /** undoes the rows appended in the running transaction, newest first */
  function rollback(appended: LogRow[], prevs: Array<LogRow | undefined>): void {
    for (let i = appended.length - 1; i >= 0; i--) {
      const row = appended[i];
      const prev = prevs[i];
      rows.pop();
      if (prev) latest.set(row.name, prev);
      else latest.delete(row.name);
      const wasLive = prev !== undefined && !prev.deleted;
      if (!wasLive && !row.deleted) removeLiveKey(row.name);
      if (wasLive && row.deleted) insertLiveKey(row.name);
    }
    revision -= appended.length;
  }

  function transaction(fn: () => void): void {
    const appended: LogRow[] = [];
    const prevs: Array<LogRow | undefined> = [];
    undo = { appended, prevs };
    try {
      fn();
    } catch (err) {
      rollback(appended, prevs);
      throw err;
    } finally {
      undo = undefined;
    }
  }

  return {
    currentRevision: () => revision,
    transaction,
    compactRevision: () => compacted,
    latestRow: (key) => latest.get(key),
    appendRow,
    listLatestRows,
    countLatestRows: (prefix) => listLatestRows(prefix, {}).length,
    readRowsAfter,
    compactRows,
    close: () => undefined,
  };
}
