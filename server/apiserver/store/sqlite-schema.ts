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
 * WAL lets readers run beside the writer. synchronous=FULL fsyncs the WAL on every commit:
 * a write the store acknowledged survives a crash *and* a power loss (NORMAL would only
 * survive a process crash), which is what a Kubernetes client assumes of a 201.
 */
export function prepareDatabase(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = OFF');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
}
