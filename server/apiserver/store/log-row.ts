import type { KeyValue, StoreEvent } from './types';

/**
 * One row of the revision log (kine design): every write appends one.
 * `id` is the revision. A create has `created`, a delete is a tombstone with `deleted`
 * whose value is the last value of the key. `prevRevision` is the id of the key's
 * previous row (0 for a key's first row ever, or after that history was compacted away).
 */
export interface LogRow {
  id: number;
  name: string;
  created: boolean;
  deleted: boolean;
  /** revision that created the key's current life (for a create row: its own id) */
  createRevision: number;
  prevRevision: number;
  value: string;
  oldValue: string | null;
}

/** A row about to be appended: the backend assigns the id. */
export type NewLogRow = Omit<LogRow, 'id'>;

export function toKeyValue(row: LogRow): KeyValue {
  return { key: row.name, value: row.value, modRevision: row.id, createRevision: row.createRevision };
}

export function toStoreEvent(row: LogRow): StoreEvent {
  const kv = toKeyValue(row);
  if (row.deleted) return { type: 'DELETED', kv, prevValue: row.oldValue ?? row.value };
  if (row.created) return { type: 'ADDED', kv };
  return { type: 'MODIFIED', kv, prevValue: row.oldValue ?? undefined };
}

/**
 * Exclusive upper bound of the keys starting with `prefix` (keys are ASCII Kubernetes paths;
 * U+10FFFF sorts after every other character in both UTF-16 and UTF-8 byte order).
 */
export function prefixEnd(prefix: string): string {
  return prefix + '\u{10FFFF}';
}

export function hasPrefix(key: string, prefix: string): boolean {
  return key.startsWith(prefix);
}
