/**
 * The console's server-side sessions and one-time sign-in codes, in one SQLite file
 * (DIR/console/sessions.db, 0600). A browser cookie holds only a random session id; the store keeps
 * the SHA-256 of each id (and of each sign-in code), never the id or code itself, so a copy of the
 * file signs nobody in. Revoking (sign-out) deletes the row: a copied cookie stops working at once.
 *
 * Several processes may open the file: `kv up` and `kv console login-link` mint codes, the console
 * redeems them; the custom server's sockets and Next's route handlers share one store per process.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** a session ends this long after it was last used */
export const SESSION_IDLE_SECONDS = 2 * 3600;
/** and at the latest this long after sign-in, used or not */
export const SESSION_ABSOLUTE_SECONDS = 12 * 3600;
/** a sign-in link works once, within this time */
export const LOGIN_CODE_TTL_SECONDS = 5 * 60;
/** last-used is written at most this often per session (a page load makes many requests) */
const TOUCH_EVERY_MS = 30_000;

export interface SessionStoreOptions {
  idleSeconds?: number;
  absoluteSeconds?: number;
  now?: () => number;
}

export interface SessionInfo {
  token: string;
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
}

export type RedeemResult = { token: string } | { error: 'unknown' | 'used' | 'expired' };

interface SessionRow { token: string; created_at: number; last_used_at: number; expires_at: number }
interface CodeRow { token: string; expires_at: number; used_at: number | null }

export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');
const newSecret = (): string => randomBytes(32).toString('base64url');

export class ConsoleSessionStore {
  private readonly db: Database.Database;
  private readonly idleMs: number;
  private readonly absoluteMs: number;
  private readonly now: () => number;
  private readonly revokeListeners = new Map<string, Set<() => void>>();

  constructor(readonly file: string, opts: SessionStoreOptions = {}) {
    this.idleMs = (opts.idleSeconds ?? SESSION_IDLE_SECONDS) * 1000;
    this.absoluteMs = (opts.absoluteSeconds ?? SESSION_ABSOLUTE_SECONDS) * 1000;
    this.now = opts.now ?? Date.now;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    closeSync(openSync(file, 'a', 0o600)); // created 0600 before SQLite writes a byte
    chmodSync(file, 0o600);
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS sessions (id_hash TEXT PRIMARY KEY, token TEXT NOT NULL, created_at INTEGER NOT NULL, last_used_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS login_codes (code_hash TEXT PRIMARY KEY, token TEXT NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, used_at INTEGER);
    `);
    this.prune();
  }

  /** A new session for `token`; the returned id goes in the cookie and nowhere else. */
  create(token: string): { id: string; expiresAt: number } {
    this.prune();
    const id = newSecret();
    const now = this.now();
    const expiresAt = now + this.absoluteMs;
    this.db.prepare('INSERT INTO sessions (id_hash, token, created_at, last_used_at, expires_at) VALUES (?, ?, ?, ?, ?)').run(hashSecret(id), token, now, now, expiresAt);
    return { id, expiresAt };
  }

  /** The live session of a cookie's id (marked used), or undefined: unknown, revoked, idle too long or past its end. */
  lookup(id: string | undefined): SessionInfo | undefined {
    if (!id) return undefined;
    const key = hashSecret(id);
    const row = this.db.prepare('SELECT token, created_at, last_used_at, expires_at FROM sessions WHERE id_hash = ?').get(key) as SessionRow | undefined;
    if (!row) return undefined;
    const now = this.now();
    if (now >= row.expires_at || now >= row.last_used_at + this.idleMs) {
      this.db.prepare('DELETE FROM sessions WHERE id_hash = ?').run(key);
      return undefined;
    }
    let lastUsed = row.last_used_at;
    if (now - lastUsed >= TOUCH_EVERY_MS) {
      this.db.prepare('UPDATE sessions SET last_used_at = ? WHERE id_hash = ?').run(now, key);
      lastUsed = now;
    }
    return { token: row.token, createdAt: row.created_at, lastUsedAt: lastUsed, expiresAt: Math.min(row.expires_at, lastUsed + this.idleMs) };
  }

  /** Ends a session (sign-out); open sockets of this session are told at once. */
  revoke(id: string | undefined): boolean {
    if (!id) return false;
    const key = hashSecret(id);
    const gone = this.db.prepare('DELETE FROM sessions WHERE id_hash = ?').run(key).changes > 0;
    for (const fn of this.revokeListeners.get(key) ?? []) fn();
    this.revokeListeners.delete(key);
    return gone;
  }

  /** Calls `fn` when the session is revoked in this process; returns the unsubscribe. */
  onRevoke(id: string, fn: () => void): () => void {
    const key = hashSecret(id);
    const set = this.revokeListeners.get(key) ?? new Set();
    set.add(fn);
    this.revokeListeners.set(key, set);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.revokeListeners.delete(key);
    };
  }

  /** A one-time sign-in code that becomes a session for `token` once, within `ttlSeconds`. */
  mintLoginCode(token: string, ttlSeconds = LOGIN_CODE_TTL_SECONDS): { code: string; expiresAt: number } {
    const code = newSecret();
    const now = this.now();
    const expiresAt = now + ttlSeconds * 1000;
    this.db.prepare('INSERT INTO login_codes (code_hash, token, created_at, expires_at) VALUES (?, ?, ?, ?)').run(hashSecret(code), token, now, expiresAt);
    return { code, expiresAt };
  }

  /** Spends a sign-in code: its token the first time within its lifetime; afterwards why not. */
  redeemLoginCode(code: string | undefined): RedeemResult {
    if (!code) return { error: 'unknown' };
    const key = hashSecret(code);
    return this.db.transaction((): RedeemResult => {
      const row = this.db.prepare('SELECT token, expires_at, used_at FROM login_codes WHERE code_hash = ?').get(key) as CodeRow | undefined;
      if (!row) return { error: 'unknown' };
      if (row.used_at !== null) return { error: 'used' };
      const now = this.now();
      if (now >= row.expires_at) return { error: 'expired' };
      this.db.prepare('UPDATE login_codes SET used_at = ? WHERE code_hash = ?').run(now, key);
      return { token: row.token };
    }).immediate();
  }

  /** Drops ended sessions and codes (spent codes are kept a day so a reuse is told "used", not "unknown"). */
  prune(): void {
    const now = this.now();
    this.db.prepare('DELETE FROM sessions WHERE expires_at <= ? OR last_used_at + ? <= ?').run(now, this.idleMs, now);
    this.db.prepare('DELETE FROM login_codes WHERE expires_at + 86400000 <= ?').run(now);
  }

  close(): void {
    this.db.close();
  }
}
