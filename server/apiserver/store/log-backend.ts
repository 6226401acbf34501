import type { LogRow, NewLogRow } from './log-row';

/** Thrown by `LogBackend.append` when a row with the same (name, prevRevision) exists: a lost CAS race. */
export class DuplicateRevisionError extends Error {
  constructor(public readonly key: string, public readonly prevRevision: number) {
    super(`row (${key}, prev ${prevRevision}) already exists`);
  }
}

export interface ListLatestOptions {
  startAfter?: string;
  limit?: number;
}

/**
 * What a storage driver provides: the append-only log and the few reads over it.
 * The CAS rules, events and watch fan-out live once, in log-store.ts.
 */
export interface LogBackend {
  /** highest revision ever assigned (never decreases, even after compaction or a restart) */
  currentRevision(): number;
  compactRevision(): number;
  /** the key's newest row, tombstones included */
  latestRow(key: string): LogRow | undefined;
  /**
   * runs fn in one transaction (one durable commit for every row fn appends); when fn throws,
   * nothing it appended stays and the error is rethrown
   */
  transaction(fn: () => void): void;
  /**
   * when present, a commit is not durable until a later sync() resolves (or syncNow returns):
   * the store acknowledges writes only then, and runs the sync off the event loop
   */
  sync?(): Promise<void>;
  syncNow?(): void;
  /** appends one row and returns it with its id; throws DuplicateRevisionError */
  appendRow(row: NewLogRow): LogRow;
  /** newest live (non-tombstone) row of each key with the prefix, ordered by key */
  listLatestRows(prefix: string, opts: ListLatestOptions): LogRow[];
  countLatestRows(prefix: string): number;
  /** rows with after < id <= until for keys with the prefix, ordered by id, at most limit */
  readRowsAfter(q: { prefix: string; after: number; until: number; limit: number }): LogRow[];
  /** deletes superseded rows and tombstones with id <= rev and records rev as the compact revision */
  compactRows(rev: number): void;
  close(): void;
}
