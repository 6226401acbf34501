import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { GROUP_AUTHENTICATED, GROUP_MASTERS, GROUP_VIEWERS, type UserInfo } from './authz';

/** Bearer tokens → users, kept in DIR/apiserver/tokens.json (0600). */
export interface TokenEntry { token: string; username: string; groups: string[] }
export interface TokenFile { tokens: TokenEntry[] }

export const ADMIN_USER = 'admin';
export const VIEWER_USER = 'viewer';

const newToken = () => randomBytes(24).toString('base64url');

export function ensureTokens(path: string): TokenFile {
  if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as TokenFile;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const file: TokenFile = {
    tokens: [
      { token: newToken(), username: ADMIN_USER, groups: [GROUP_MASTERS] },
      { token: newToken(), username: VIEWER_USER, groups: [GROUP_VIEWERS] },
    ],
  };
  writeFileSync(path, JSON.stringify(file, null, 2), { mode: 0o600 });
  return file;
}

export function tokenFor(file: TokenFile, username: string): string {
  const e = file.tokens.find((t) => t.username === username);
  if (!e) throw new Error(`no token for user ${username}`);
  return e.token;
}

function safeEqual(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/** the user behind a request's bearer token, or undefined (anonymous) */
export function authenticate(file: TokenFile, req: IncomingMessage): UserInfo | undefined {
  const h = req.headers.authorization;
  if (!h || !/^bearer /i.test(h)) return undefined;
  const token = h.slice(7).trim();
  const e = file.tokens.find((t) => safeEqual(t.token, token));
  return e && { username: e.username, groups: [...e.groups, GROUP_AUTHENTICATED] };
}
