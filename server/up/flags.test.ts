import { describe, expect, it } from 'vitest';
import { parseUpFlags } from './flags';

describe('kv up flags', () => {
  it('the one-time console link lasts 5 minutes unless --login-link-ttl says otherwise', () => {
    expect(parseUpFlags([]).loginLinkTtl).toBe(300);
    expect(parseUpFlags(['--login-link-ttl', '10m']).loginLinkTtl).toBe(600);
  });

  it.each(['soon', '2d'])('refuses --login-link-ttl %s with the flag named', (v) => {
    expect(() => parseUpFlags(['--login-link-ttl', v])).toThrow(/^--login-link-ttl must be a duration/);
  });
});

describe('kv up --bare', () => {
  it('is off by default; --bare also turns the console off', () => {
    expect(parseUpFlags([]).bare).toBe(false);
    expect(parseUpFlags([]).console).toBe(true);
    expect(parseUpFlags(['--bare'])).toMatchObject({ bare: true, console: false });
  });
});
