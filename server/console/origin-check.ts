/**
 * Same-origin check for state-changing requests and WebSocket upgrades: the browser's Origin must
 * name this very host. SameSite=Strict already keeps the cookie off cross-site requests; this is the
 * second lock (and the only one for WebSockets, which SameSite does not cover everywhere).
 */

/** True when `origin` is http(s)://`host` (the Host header, port included). */
export function isSameOrigin(origin: string | undefined | null, host: string | undefined | null): boolean {
  if (!origin || !host || origin === 'null') return false;
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host === host.toLowerCase();
  } catch {
    return false;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A request may change state only with the same origin; safe methods always pass. */
export function isAllowedRequest(method: string, origin: string | undefined | null, host: string | undefined | null): boolean {
  return SAFE_METHODS.has(method.toUpperCase()) || isSameOrigin(origin, host);
}
