/**
 * The process's one session store. The custom server (WebSocket routes) and Next's route handlers
 * are bundled apart, so the store is found through the environment (its file, set once at start by
 * registerConsole) and kept on globalThis: both halves get the same instance and the same
 * revoke listeners.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataPaths } from '../data-dir';
import { ConsoleSessionStore } from './session-store';

export const SESSION_DB_ENV = 'KV_CONSOLE_SESSION_DB';
const CACHE = Symbol.for('kubevirt-ts.console.session-store');

type Cache = { [CACHE]?: ConsoleSessionStore };

/** Points this process at DIR/console/sessions.db (sessions survive a restart), else a private temp file. */
export function ensureSessionStoreFile(dataDir: string | undefined): string {
  if (!process.env[SESSION_DB_ENV]) {
    process.env[SESSION_DB_ENV] = dataDir ? dataPaths(dataDir).consoleSessions : join(mkdtempSync(join(tmpdir(), 'kv-console-')), 'sessions.db');
  }
  return process.env[SESSION_DB_ENV]!;
}

/** The store of this process (opened on first use). */
export function consoleSessions(): ConsoleSessionStore {
  const cache = globalThis as Cache;
  const file = ensureSessionStoreFile(process.env.KV_DATA_DIR);
  if (cache[CACHE]?.file !== file) {
    cache[CACHE]?.close();
    cache[CACHE] = new ConsoleSessionStore(file);
  }
  return cache[CACHE]!;
}

/** Closes the store of this process (tests reopen it as a restarted console would). */
export function closeConsoleSessions(): void {
  const cache = globalThis as Cache;
  cache[CACHE]?.close();
  delete cache[CACHE];
}
