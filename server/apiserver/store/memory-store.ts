import { createLogStore, type LogStoreOptions } from './log-store';
import { createMemoryBackend } from './memory-backend';
import type { Store } from './types';

/** An in-memory Store with the same semantics as the SQLite one (tests, throwaway clusters). */
export function createMemoryStore(opts: LogStoreOptions = {}): Store {
  return createLogStore(createMemoryBackend(), opts);
}
