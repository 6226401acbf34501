/**
 * One-time sign-in links (`kv up`, `kv console login-link`): a random code, stored hashed in the
 * console's session store with the admin token it signs in as; the console spends it once
 * (app/login/route.ts). The link carries no token, so browser history and scrollback hold nothing
 * that still works after the code is spent or expired.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { dataPaths } from '../data-dir';
import { ConsoleSessionStore, LOGIN_CODE_TTL_SECONDS } from './session-store';

export { LOGIN_CODE_TTL_SECONDS };

export const loginUrlFor = (base: string, code: string): string => `${base}/login?code=${encodeURIComponent(code)}`;

/** Mints a one-time code in DIR/console/sessions.db that signs in as `token`; returns the link. */
export function mintLoginLink(dataDir: string, base: string, token: string, ttlSeconds = LOGIN_CODE_TTL_SECONDS): { url: string; expiresAt: number } {
  const store = new ConsoleSessionStore(dataPaths(dataDir).consoleSessions);
  try {
    const { code, expiresAt } = store.mintLoginCode(token, ttlSeconds);
    return { url: loginUrlFor(base, code), expiresAt };
  } finally {
    store.close();
  }
}

/** The console writes where it listens (DIR/console/url) so `kv console login-link` can print a link to it. */
export function recordConsoleUrl(dataDir: string, base: string): void {
  const file = dataPaths(dataDir).consoleUrl;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, base + '\n', { mode: 0o600 });
}

export function recordedConsoleUrl(dataDir: string): string | undefined {
  try {
    return readFileSync(dataPaths(dataDir).consoleUrl, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
