import { describe, expect, it } from 'vitest';
import { OwnWrites } from './own-writes';

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
