import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConsoleSessionStore, hashSecret } from './session-store';

let dir: string;
let clock: number;
const open = (opts: { idleSeconds?: number; absoluteSeconds?: number } = {}) => new ConsoleSessionStore(join(dir, 'console', 'sessions.db'), { ...opts, now: () => clock });
const stores: ConsoleSessionStore[] = [];
const track = (s: ConsoleSessionStore) => (stores.push(s), s);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kv-sessions-'));
  clock = 1_800_000_000_000;
});
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('console sessions', () => {
  it('a new session answers its token by id; an unknown id answers nothing', () => {
    const s = track(open());
    const { id } = s.create('tok-a');
    expect(s.lookup(id)?.token).toBe('tok-a');
    expect(s.lookup(id + 'x')).toBeUndefined();
    expect(s.lookup(undefined)).toBeUndefined();
    expect(s.create('tok-a').id).not.toBe(id);
  });

  it('revoking ends the session at once and tells its listeners', () => {
    const s = track(open());
    const { id } = s.create('tok-a');
    let told = 0;
    s.onRevoke(id, () => told++);
    expect(s.revoke(id)).toBe(true);
    expect(s.lookup(id)).toBeUndefined();
    expect(told).toBe(1);
    expect(s.revoke(id)).toBe(false);
  });

  it('ends a session left idle too long, and keeps one in use until its absolute end', () => {
    const s = track(open({ idleSeconds: 60, absoluteSeconds: 300 }));
    const idle = s.create('idle').id;
    const busy = s.create('busy').id;
    for (let t = 0; t < 5; t++) {
      clock += 50_000;
      expect(s.lookup(busy)?.token).toBe('busy');
    }
    expect(s.lookup(idle)).toBeUndefined(); // 250 s without use
    clock += 50_000; // 300 s after sign-in
    expect(s.lookup(busy)).toBeUndefined();
  });

  it('survives a reopen of the file (a console restart), and stores neither ids nor codes in clear', () => {
    const a = open();
    const { id } = a.create('tok-restart');
    const { code } = a.mintLoginCode('tok-code');
    a.close();
    const b = track(open());
    expect(b.lookup(id)?.token).toBe('tok-restart');
    const files = readdirSync(join(dir, 'console')).map((f) => readFileSync(join(dir, 'console', f)).toString('latin1')).join('');
    expect(files).toContain(hashSecret(id)); // what is stored: the hash
    expect(files).not.toContain(id);
    expect(files).not.toContain(code);
    for (const f of readdirSync(join(dir, 'console'))) expect([f, statSync(join(dir, 'console', f)).mode & 0o777]).toEqual([f, 0o600]); // the WAL too
    expect(statSync(join(dir, 'console')).mode & 0o777).toBe(0o700);
  });
});

describe('one-time sign-in codes', () => {
  it('work once', () => {
    const s = track(open());
    const { code } = s.mintLoginCode('admin-token');
    expect(s.redeemLoginCode(code)).toEqual({ token: 'admin-token' });
    expect(s.redeemLoginCode(code)).toEqual({ error: 'used' });
  });

  it('expire after their TTL (5 minutes by default)', () => {
    const s = track(open());
    const short = s.mintLoginCode('t', 10).code;
    const dflt = s.mintLoginCode('t').code;
    clock += 10_000;
    expect(s.redeemLoginCode(short)).toEqual({ error: 'expired' });
    clock += 289_000;
    expect(s.redeemLoginCode(dflt)).toEqual({ token: 't' });
    const late = s.mintLoginCode('t').code;
    clock += 300_000;
    expect(s.redeemLoginCode(late)).toEqual({ error: 'expired' });
  });

  it('a code minted by another process (kv up) is redeemed once across both', () => {
    const minter = open();
    const console = track(open());
    const { code } = minter.mintLoginCode('admin');
    expect(console.redeemLoginCode(code)).toEqual({ token: 'admin' });
    expect(minter.redeemLoginCode(code)).toEqual({ error: 'used' });
    minter.close();
    expect(console.redeemLoginCode('made-up')).toEqual({ error: 'unknown' });
    expect(console.redeemLoginCode(undefined)).toEqual({ error: 'unknown' });
  });
});
