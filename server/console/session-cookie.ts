/**
 * The console session: the user's bearer token sealed (AES-256-GCM) into an httpOnly, SameSite=Strict
 * cookie. Stateless on purpose: the custom server's WebSocket routes and Next's separately bundled
 * route handlers both open it with the same key (KV_CONSOLE_SESSION_KEY, set once at start).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'kv_session';
export const SESSION_KEY_ENV = 'KV_CONSOLE_SESSION_KEY';
export const SESSION_TTL_SECONDS = 12 * 3600;

interface SessionPayload { t: string; e: number }

function keyFrom(hex: string | undefined): Buffer {
  const key = Buffer.from(hex ?? '', 'hex');
  if (key.length !== 32) throw new Error(`${SESSION_KEY_ENV} must be 32 bytes of hex`);
  return key;
}

export function newSessionKey(): string {
  return randomBytes(32).toString('hex');
}

/** Seals a token into a cookie value that expires `ttl` seconds from `now`. */
export function sealSession(token: string, keyHex: string, now = Date.now(), ttl = SESSION_TTL_SECONDS): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(keyHex), iv);
  const payload: SessionPayload = { t: token, e: now + ttl * 1000 };
  const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The token in a cookie value, or undefined (tampered, wrong key, expired, garbage). */
export function openSession(value: string | undefined, keyHex: string | undefined, now = Date.now()): string | undefined {
  if (!value || !keyHex) return undefined;
  try {
    const raw = Buffer.from(value, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', keyFrom(keyHex), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    const p = JSON.parse(text) as SessionPayload;
    return typeof p.t === 'string' && p.e > now ? p.t : undefined;
  } catch {
    return undefined;
  }
}

/** Set-Cookie value for a session (Secure when served over https). */
export function sessionCookieHeader(value: string, opts: { secure: boolean; maxAge?: number }): string {
  const parts = [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${opts.maxAge ?? SESSION_TTL_SECONDS}`];
  if (opts.secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearSessionCookieHeader(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
}

/** a cookie value decoded; a malformed escape is no value (the request is then unauthenticated, not an error) */
function decodeCookieValue(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** One cookie's value from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeCookieValue(part.slice(i + 1).trim());
  }
  return undefined;
}

/** The session token of a request (Cookie header), using the process's session key. */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  return openSession(readCookie(cookieHeader, SESSION_COOKIE), process.env[SESSION_KEY_ENV]);
}
