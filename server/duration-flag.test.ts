import { describe, expect, it } from 'vitest';
import { parseDurationFlag } from './duration-flag';

describe('duration flags', () => {
  it.each([['90s', 90], ['5m', 300], ['8h', 28800], ['1h30m', 5400], ['2d', 172800], ['600', 600]])('%s is %i s', (raw, s) => {
    expect(parseDurationFlag('--ttl', raw)).toBe(s);
  });

  it.each(['', '5x', '-5m', 'm', '1.5h', '0'])('refuses "%s" with the flag named', (raw) => {
    expect(() => parseDurationFlag('--ttl', raw)).toThrow(/^--ttl must be a duration/);
  });

  it('holds to bounds', () => {
    expect(() => parseDurationFlag('--ttl', '5m', { min: 600 })).toThrow(/between 600s/);
    expect(parseDurationFlag('--ttl', '10m', { min: 600 })).toBe(600);
  });
});
