import { describe, expect, it } from 'vitest';
import { isAllowedRequest, isSameOrigin } from './origin-check';
import { newSessionKey, openSession, readCookie, sealSession, sessionCookieHeader } from './session-cookie';

describe('session cookie', () => {
  const key = newSessionKey();

  it('round-trips a token', () => {
    expect(openSession(sealSession('tok-123', key), key)).toBe('tok-123');
  });

  it.each([
    ['another key', (v: string) => openSession(v, newSessionKey())],
    ['a flipped byte', (v: string) => openSession(v.slice(0, 20) + (v[20] === 'A' ? 'B' : 'A') + v.slice(21), key)],
    ['garbage', () => openSession('not-a-cookie', key)],
    ['no key configured', (v: string) => openSession(v, undefined)],
    ['expiry', (v: string) => openSession(v, key, Date.now() + 13 * 3600 * 1000)],
  ])('refuses %s', (_n, open) => {
    expect(open(sealSession('tok-123', key))).toBeUndefined();
  });

  it('never carries the token in clear', () => {
    expect(Buffer.from(sealSession('very-secret-token', key), 'base64url').toString('latin1')).not.toContain('very-secret-token');
  });

  it('is httpOnly and SameSite=Strict', () => {
    expect(sessionCookieHeader('v', { secure: false })).toBe('kv_session=v; Path=/; HttpOnly; SameSite=Strict; Max-Age=43200');
    expect(sessionCookieHeader('v', { secure: true })).toMatch(/; Secure$/);
  });

  it('reads one cookie among several', () => {
    expect(readCookie('a=1; kv_session=abc%3D; b=2', 'kv_session')).toBe('abc=');
    expect(readCookie(undefined, 'kv_session')).toBeUndefined();
  });
});

describe('origin check', () => {
  it.each([
    ['http://127.0.0.1:3000', '127.0.0.1:3000', true],
    ['https://console.example:8443', 'console.example:8443', true],
    ['http://evil.example', '127.0.0.1:3000', false],
    ['http://127.0.0.1:3001', '127.0.0.1:3000', false],
    ['null', '127.0.0.1:3000', false],
    [undefined, '127.0.0.1:3000', false],
    ['file://x', 'x', false],
  ])('%s on host %s → %s', (origin, host, ok) => expect(isSameOrigin(origin, host)).toBe(ok));

  it('lets safe methods through and holds the others to the origin', () => {
    expect(isAllowedRequest('GET', undefined, 'h:1')).toBe(true);
    expect(isAllowedRequest('POST', undefined, 'h:1')).toBe(false);
    expect(isAllowedRequest('DELETE', 'http://h:1', 'h:1')).toBe(true);
  });
});
