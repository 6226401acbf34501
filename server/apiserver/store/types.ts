/**
 * The embedded store's contract (kine design, see STYLE.md).
 *
 * One append-only log: every create/update/delete appends a row whose id is the new
 * revision, which the API server exposes as `metadata.resourceVersion`. Values are the
 * object's JSON *without* resourceVersion (the REST layer stamps it on read).
 * Compare-and-swap is the database's job (unique (key, prev_revision)). Deletes are
 * tombstone rows. Compaction drops superseded rows below a revision; watching or
 * listing from a revision below the compacted one throws `CompactedError` (→ 410 Gone).
 */

export interface KeyValue {
  key: string;
  value: string;
  /** revision of the row that wrote this value (→ resourceVersion) */
  modRevision: number;
  /** revision at which the key was created (first row of its current life) */
  createRevision: number;
}

export type StoreEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: StoreEventType;
  /** for DELETED: the tombstone's revision; kv.value is the last value before deletion */
  kv: KeyValue;
  /** previous value (MODIFIED and DELETED), used for selector transitions */
  prevValue?: string;
}

export interface ListOptions {
  /** list keys strictly greater than this key (continue token) */
  startAfter?: string;
  limit?: number;
}

export interface ListResult {
  items: KeyValue[];
  /** store revision the list reflects */
  revision: number;
  /** true when more keys follow the last returned one */
  more: boolean;
}

export interface WatchOptions {
  /** deliver events with revision > this; 0 = only future events */
  afterRevision: number;
  signal: AbortSignal;
  /**
   * Called once per event, in revision order. May return a promise (e.g. waiting for a socket
   * to drain): the next event waits for it, and events queue meanwhile (bounded, see onDropped).
   */
  onEvent: (e: StoreEvent) => void | Promise<void>;
  /** called when the watcher fell too far behind and was dropped: the client must relist */
  onDropped?: () => void;
}

export class ConflictError extends Error {
  constructor(public readonly key: string, message = 'revision mismatch') { super(message); }
}
export class NotFoundError extends Error {
  constructor(public readonly key: string) { super(`key not found: ${key}`); }
}
export class AlreadyExistsError extends Error {
  constructor(public readonly key: string) { super(`key already exists: ${key}`); }
}
export class CompactedError extends Error {
  constructor(public readonly compactRevision: number) { super(`revision compacted (oldest available is ${compactRevision})`); }
}

export interface Store {
  currentRevision(): number;
  compactRevision(): number;
  get(key: string): KeyValue | undefined;
  /** keys with the given prefix, ordered by key */
  list(prefix: string, opts?: ListOptions): ListResult;
  count(prefix: string): number;
  /*
   * Writes are group-committed: concurrent writes share one durable commit, and a write's
   * promise settles only after the commit covering it (resolved = durable, and its watch event
   * already published). Each write's checks run at its turn, against every write before it.
   */
  /** resolves to the new revision; rejects with AlreadyExistsError */
  create(key: string, value: string): Promise<number>;
  /** CAS on modRevision; rejects with ConflictError / NotFoundError */
  update(key: string, value: string, expectedModRevision: number): Promise<number>;
  /** CAS when expectedModRevision given; resolves to the tombstone revision; rejects with NotFoundError / ConflictError */
  delete(key: string, expectedModRevision?: number): Promise<{ revision: number; prev: KeyValue }>;
  /** replays events after opts.afterRevision for keys with the prefix, then streams live ones, in revision order */
  watch(prefix: string, opts: WatchOptions): void;
  /** drop superseded rows and tombstones with revision <= rev */
  compact(rev: number): void;
  /** committed batches and the writes in them since the store opened */
  commitStats(): { batches: number; writes: number; syncs: number };
  /** commits queued writes and makes them durable, then closes */
  close(): void;
}
