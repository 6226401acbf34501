import { closeSync, fdatasync, fdatasyncSync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { DuplicateRevisionError, type ListLatestOptions, type LogBackend } from './log-backend';
import { prefixEnd, type LogRow, type NewLogRow } from './log-row';
import { META_COMPACT_REVISION, prepareDatabase } from './sqlite-schema';

interface DbRow {
  id: number;
  name: string;
  created: number;
  deleted: number;
  create_revision: number;
  prev_revision: number;
  value: string;
  old_value: string | null;
}

const COLUMNS = 'id, name, created, deleted, create_revision, prev_revision, value, old_value';
/** newest row id per key in [lo, hi) after a start key, in key order: walks the (name, id) index, no sort */
const LATEST_IDS = 'SELECT name, MAX(id) AS mid FROM log WHERE name >= @lo AND name < @hi AND name > @start GROUP BY name ORDER BY name';

const SQL = {
  latest: `SELECT ${COLUMNS} FROM log WHERE name = ? ORDER BY id DESC LIMIT 1`,
  insert: `INSERT INTO log (name, created, deleted, create_revision, prev_revision, value, old_value)
           VALUES (@name, @created, @deleted, @createRevision, @prevRevision, @value, @oldValue)`,
  list: `SELECT ${COLUMNS.replace(/(\w+)/g, 'l.$1')} FROM (${LATEST_IDS}) m JOIN log l ON l.id = m.mid
         WHERE l.deleted = 0 ORDER BY m.name LIMIT @limit`,
  count: `SELECT COUNT(*) AS n FROM (${LATEST_IDS}) m JOIN log l ON l.id = m.mid WHERE l.deleted = 0`,
  after: `SELECT ${COLUMNS} FROM log WHERE id > @after AND id <= @until AND name >= @lo AND name < @hi ORDER BY id LIMIT @limit`,
  revision: `SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'log'), 0), COALESCE((SELECT MAX(id) FROM log), 0)) AS rev`,
  getMeta: 'SELECT value FROM meta WHERE key = ?',
  setMeta: 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  deleteSuperseded: 'DELETE FROM log WHERE id IN (SELECT prev_revision FROM log WHERE id > ? AND id <= ? AND prev_revision > 0)',
  deleteTombstones: 'DELETE FROM log WHERE id > ? AND id <= ? AND deleted = 1',
};

function toLogRow(r: DbRow): LogRow {
  return {
    id: r.id,
    name: r.name,
    created: r.created === 1,
    deleted: r.deleted === 1,
    createRevision: r.created === 1 ? r.id : r.create_revision,
    prevRevision: r.prev_revision,
    value: r.value,
    oldValue: r.old_value,
  };
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** The log in one SQLite file; a single process writes it (the embedded API server). */
export function openSqliteBackend(path: string): LogBackend {
  const db = new Database(path);
  prepareDatabase(db);
  const st = Object.fromEntries(Object.entries(SQL).map(([k, sql]) => [k, db.prepare(sql)])) as Record<keyof typeof SQL, Database.Statement>;
  let revision = (st.revision.get() as { rev: number }).rev;
  let compacted = (st.getMeta.get(META_COMPACT_REVISION) as { value: number } | undefined)?.value ?? 0;

  const range = (prefix: string, start?: string) => ({ lo: prefix, hi: prefixEnd(prefix), start: start ?? '' });

  function appendRow(row: NewLogRow): LogRow {
    const params = { ...row, created: row.created ? 1 : 0, deleted: row.deleted ? 1 : 0, createRevision: row.created ? 0 : row.createRevision };
    try {
      const id = Number(st.insert.run(params).lastInsertRowid);
      revision = Math.max(revision, id);
      return { ...row, id, createRevision: row.created ? id : row.createRevision };
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateRevisionError(row.name, row.prevRevision);
      throw err;
    }
  }

  function listLatestRows(prefix: string, opts: ListLatestOptions): LogRow[] {
    const rows = st.list.all({ ...range(prefix, opts.startAfter), limit: opts.limit ?? -1 }) as DbRow[];
    return rows.map(toLogRow);
  }

  const compact = db.transaction((rev: number) => {
    st.deleteSuperseded.run(compacted, rev);
    st.deleteTombstones.run(compacted, rev);
    st.setMeta.run(META_COMPACT_REVISION, rev);
  });

  const inTransaction = db.transaction((fn: () => void) => fn());
  function transaction(fn: () => void): void {
    try {
      inTransaction.immediate(fn);
    } catch (err) {
      revision = (st.revision.get() as { rev: number }).rev;
      throw err;
    }
  }

  /**
   * The WAL file, opened once it exists (after the first commit). SQLite keeps the same file
   * while the database is open (a checkpoint rewrites it from the start, never replaces it).
   * The directory is synced once, so the WAL's name is as durable as its content.
   */
  let walFd: number | undefined;
  function wal(): number {
    if (walFd !== undefined) return walFd;
    walFd = openSync(`${path}-wal`, 'r');
    const dirFd = openSync(dirname(path), 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
    return walFd;
  }

  return {
    currentRevision: () => revision,
    transaction,
    sync: () => new Promise<void>((resolve, reject) => fdatasync(wal(), (err) => (err ? reject(err) : resolve()))),
    syncNow: () => fdatasyncSync(wal()),
    compactRevision: () => compacted,
    latestRow(key) {
      const r = st.latest.get(key) as DbRow | undefined;
      return r && toLogRow(r);
    },
    appendRow,
    listLatestRows,
    countLatestRows: (prefix) => (st.count.get(range(prefix)) as { n: number }).n,
    readRowsAfter(q) {
      const rows = st.after.all({ after: q.after, until: q.until, limit: q.limit, ...range(q.prefix) }) as DbRow[];
      return rows.map(toLogRow);
    },
    compactRows(rev) {
      compact(rev);
      compacted = rev;
    },
    close: () => {
      db.close();
      if (walFd !== undefined) closeSync(walFd);
    },
  };
}
