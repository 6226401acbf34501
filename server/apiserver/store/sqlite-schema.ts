import type Database from 'better-sqlite3';

/**
 * The kine log table. `id` is the revision (AUTOINCREMENT: never reused, so revisions
 * keep increasing after compaction and restarts). The unique (name, prev_revision) index
 * makes compare-and-swap the database's job; (name, id) serves point reads, "newest row
 * per key" lists and compaction. A create row stores create_revision 0 (its own id is the
 * create revision). `meta` holds the compact revision.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  created INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  value TEXT NOT NULL,
  old_value TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS log_name_prev_revision ON log (name, prev_revision);
CREATE INDEX IF NOT EXISTS log_name_id ON log (name, id);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
`;

export const META_COMPACT_REVISION = 'compact_revision';

/**
 * WAL lets readers run beside the writer. A write the store acknowledged must survive a crash
 * *and* a power loss, which is what a Kubernetes client assumes of a 201. synchronous=FULL
 * would fdatasync the WAL inside every COMMIT, on the event loop; instead the store runs with
 * synchronous=NORMAL (COMMIT writes the WAL frames without syncing; checkpoints still sync
 * the WAL before and the database after) and the backend fdatasyncs the WAL itself, off the
 * event loop, before any write of that commit is acknowledged (sqlite-backend.ts `sync`).
 * The same durability as FULL, one sync for every commit made while the previous one ran.
 */
export function prepareDatabase(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
}
