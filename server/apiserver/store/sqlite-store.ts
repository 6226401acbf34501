import { startCompactor } from './compactor';
import { createLogStore, type LogStoreOptions } from './log-store';
import { openSqliteBackend } from './sqlite-backend';
import type { Store } from './types';

export interface SqliteStoreOptions extends LogStoreOptions {
  /** when set, a compactor runs with the store and keeps this many revisions */
  compactKeep?: number;
  /** how often that compactor runs (default 5 minutes) */
  compactIntervalMs?: number;
}

/** The durable Store: a kine-style revision log in one SQLite file (see sqlite-schema.ts). */
export function openSqliteStore(path: string, opts: SqliteStoreOptions = {}): Store {
  const store = createLogStore(openSqliteBackend(path), opts);
  if (opts.compactKeep === undefined) return store;
  const stopCompactor = startCompactor(store, { keepRevisions: opts.compactKeep, intervalMs: opts.compactIntervalMs });
  return {
    ...store,
    close() {
      stopCompactor();
      store.close();
    },
  };
}
