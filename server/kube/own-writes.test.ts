import { describe, expect, it } from 'vitest';
import { OwnEchoes, OwnWrites } from './own-writes';

describe('OwnWrites', () => {
  it('calls a cached version stale until the cache shows a newer one', () => {
    const w = new OwnWrites();
    expect(w.isStale('ns/a', '10')).toBe(false);
    w.wrote('ns/a', '10', '11');
    w.wrote('ns/a', '11', '12'); // a second write in the same sync, over the first one's result
    expect(w.isStale('ns/a', '10')).toBe(true);
    expect(w.isStale('ns/a', '11')).toBe(true);
    expect(w.isStale('ns/b', '10')).toBe(false);
    expect(w.isStale('ns/a', '12')).toBe(false);
    // caught up: the replaced versions are dropped
    expect(w.isStale('ns/a', '10')).toBe(false);
  });

  it('does not call a version stale when the write changed nothing (no new version, no watch event)', () => {
    const w = new OwnWrites();
    w.wrote('ns/a', '7', '7');
    expect(w.isStale('ns/a', '7')).toBe(false);
  });

  it('forgets a key and ignores writes without a version', () => {
    const w = new OwnWrites();
    w.wrote('ns/a', undefined, '3');
    expect(w.isStale('ns/a', undefined)).toBe(false);
    w.wrote('ns/a', '5', '6');
    w.forget('ns/a');
    expect(w.isStale('ns/a', '5')).toBe(false);
  });
});

describe('OwnEchoes', () => {
  it('drops the echo of our write once, and acts on anyone else\'s', () => {
    const e = new OwnEchoes();
    e.begin('q');
    expect(e.end('q', '12')).toBe(false);
    expect(e.isOthers('q', '12')).toBe(false); // our echo
    expect(e.isOthers('q', '12')).toBe(true); // not twice
    expect(e.isOthers('q', '13')).toBe(true);
    expect(e.isOthers('other', '12')).toBe(true);
  });

  it('holds events that arrive while our write is in flight, then tells whether one was someone else\'s', () => {
    const e = new OwnEchoes();
    e.begin('q');
    expect(e.isOthers('q', '20')).toBe(false); // held
    expect(e.end('q', '20')).toBe(false); // it was ours
    expect(e.isOthers('q', '20')).toBe(true); // and is not awaited any more
    e.begin('q');
    expect(e.isOthers('q', '21')).toBe(false);
    expect(e.end('q', '22')).toBe(true); // 21 was someone else's
    expect(e.isOthers('q', '22')).toBe(false);
  });

  it('a failed write waits for no echo; a held event is handed on', () => {
    const e = new OwnEchoes();
    e.begin('q');
    expect(e.isOthers('q', '30')).toBe(false);
    expect(e.end('q', undefined)).toBe(true);
    expect(e.isOthers('q', '31')).toBe(true);
  });
});
