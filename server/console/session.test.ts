import { describe, expect, it } from 'vitest';
import { isAllowedRequest, isSameOrigin } from './origin-check';
import { readCookie, sessionCookieHeader } from './session-cookie';

describe('session cookie', () => {
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
