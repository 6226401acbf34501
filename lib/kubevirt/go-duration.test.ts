import { describe, expect, it } from 'vitest';
import { parseGoDuration } from './go-duration';

describe("Go's duration syntax", () => {
  it.each([
    ['5m', 300_000], ['5m0s', 300_000], ['1h30m', 5_400_000], ['300ms', 300], ['1.5s', 1500], ['0', 0], ['-2s', -2000],
  ])('%s → %d ms', (text, ms) => expect(parseGoDuration(text)).toBe(ms));
  it.each(['', '5', 'm', '5 m', '5mins', '1h-2m'])('%j is refused', (text) => expect(parseGoDuration(text)).toBeUndefined());
});
