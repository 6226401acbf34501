import { describe, expect, it } from 'vitest';
import { Expectations } from './expectations';

function makeClock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('Expectations', () => {
  it('is satisfied for unknown keys', () => {
    expect(new Expectations().satisfied('ns/vmi')).toBe(true);
  });

  it.each([
    ['no creation observed yet', 1, 0, false],
    ['the one creation observed', 1, 1, true],
    ['one of two creations observed', 2, 1, false],
    ['more observed than expected', 1, 2, true],
  ])('%s → satisfied=%s', (_label, expected, observed, satisfied) => {
    const e = new Expectations();
    e.expectCreations('k', expected);
    for (let i = 0; i < observed; i++) e.creationObserved('k');
    expect(e.satisfied('k')).toBe(satisfied);
  });

  it('expires unmet expectations after the TTL (5 minutes)', () => {
    const clock = makeClock();
    const e = new Expectations(undefined, clock.now);
    e.expectCreations('k', 1);
    clock.advance(5 * 60 * 1000 - 1);
    expect(e.satisfied('k')).toBe(false);
    clock.advance(2);
    expect(e.satisfied('k')).toBe(true);
  });

  it('counts each deleted UID once, and ignores UIDs it did not expect', () => {
    const e = new Expectations();
    e.expectDeletions('k', ['u1', 'u2']);
    e.deletionObserved('k', 'u1');
    e.deletionObserved('k', 'u1');
    e.deletionObserved('k', 'other');
    expect(e.satisfied('k')).toBe(false);
    e.deletionObserved('k', 'u2');
    expect(e.satisfied('k')).toBe(true);
  });

  it('raiseExpectations adds to what is pending', () => {
    const e = new Expectations();
    e.expectCreations('k', 1);
    e.raiseExpectations('k', 1);
    e.creationObserved('k');
    expect(e.satisfied('k')).toBe(false);
    e.creationObserved('k');
    expect(e.satisfied('k')).toBe(true);
  });

  it('lowerExpectations undoes a failed create', () => {
    const e = new Expectations();
    e.expectCreations('k', 1);
    e.lowerExpectations('k', 1);
    expect(e.satisfied('k')).toBe(true);
  });

  it('deleteExpectations forgets the key', () => {
    const e = new Expectations();
    e.expectCreations('k', 3);
    e.deleteExpectations('k');
    expect(e.satisfied('k')).toBe(true);
    expect(e.pending('k')).toBeUndefined();
  });
});
