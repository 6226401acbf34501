/**
 * The console session cookie: httpOnly, SameSite=Strict, holding only a random session id. What the
 * id stands for (the user's token, its expiry) lives server-side in the session store
 * (session-store.ts), so sign-out revokes it everywhere at once.
 */
import { consoleSessions } from './console-sessions';
import { SESSION_ABSOLUTE_SECONDS } from './session-store';

export const SESSION_COOKIE = 'kv_session';

/** Set-Cookie value for a session id (Secure when served over https). */
export function sessionCookieHeader(id: string, opts: { secure: boolean; maxAge?: number }): string {
  const parts = [`${SESSION_COOKIE}=${id}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${opts.maxAge ?? SESSION_ABSOLUTE_SECONDS}`];
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

/** The live session of a request's Cookie header: its id and the user's token. */
export function sessionOf(cookieHeader: string | undefined): { id: string; token: string } | undefined {
  const id = readCookie(cookieHeader, SESSION_COOKIE);
  const session = id ? consoleSessions().lookup(id) : undefined;
  return session ? { id: id!, token: session.token } : undefined;
}

/** The session token of a request (Cookie header). */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  return sessionOf(cookieHeader)?.token;
}

/** A new session for a token the API server accepted: the Set-Cookie header that carries it. */
export function startSession(token: string, secure: boolean): string {
  return sessionCookieHeader(consoleSessions().create(token).id, { secure });
}
