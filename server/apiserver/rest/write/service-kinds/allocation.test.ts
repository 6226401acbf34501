import { describe, expect, it } from 'vitest';
import { pickValue, staticBand } from './allocation';
import { formatIpv4, offsetIn, parseCidr, parseIpv4 } from './ipv4';

describe('pickValue', () => {
  const range = { first: 10, last: 19 };

  it.each([
    ['a free requested value', 12, new Set<number>(), { ok: true, value: 12 }],
    ['a taken requested value', 12, new Set([12]), { ok: false, error: 'allocated' }],
    ['below the range', 9, new Set<number>(), { ok: false, error: 'range' }],
    ['above the range', 20, new Set<number>(), { ok: false, error: 'range' }],
  ])('%s', (_what, requested, used, want) => {
    expect(pickValue({ range, used, requested, band: 4 })).toEqual(want);
  });

  it('draws dynamic values above the static band first', () => {
    for (let i = 0; i < 20; i++) {
      const pick = pickValue({ range, used: new Set(), band: 4, random: () => i / 20 });
      expect(pick.ok && pick.value).toBeGreaterThanOrEqual(14);
    }
  });

  it('falls back to the static band, then reports a full range', () => {
    const upperTaken = new Set([14, 15, 16, 17, 18, 19]);
    const pick = pickValue({ range, used: upperTaken, band: 4 });
    expect(pick.ok && pick.value).toBeLessThan(14);
    const all = new Set(Array.from({ length: 10 }, (_, i) => 10 + i));
    expect(pickValue({ range, used: all, band: 4 })).toEqual({ ok: false, error: 'full' });
  });

  it('never hands out the same value twice while the used set grows', () => {
    const used = new Set<number>();
    for (let i = 0; i < 10; i++) {
      const pick = pickValue({ range, used, band: 4 });
      expect(pick.ok).toBe(true);
      if (pick.ok) used.add(pick.value);
    }
    expect(used.size).toBe(10);
  });

  it.each([[65536, 128, 128], [2768, 128, 128], [100, 256, 16], [4096, 256, 256]])('static band of %i values (cap %i) is %i', (size, cap, want) => {
    expect(staticBand(size, cap)).toBe(want);
  });
});

describe('ipv4', () => {
  it.each([['10.96.0.1', 0x0a600001], ['255.255.255.255', 0xffffffff], ['0.0.0.0', 0]])('parses %s', (text, n) => {
    expect(parseIpv4(text)).toBe(n);
    expect(formatIpv4(n)).toBe(text);
  });

  it.each(['10.96.0', '10.96.0.256', '010.96.0.1', 'abc', '10.96.0.1/16', '::1'])('refuses %s', (text) => {
    expect(parseIpv4(text)).toBeUndefined();
  });

  it('knows what lies inside 10.96.0.0/16', () => {
    const r = parseCidr('10.96.0.0/16');
    expect(r.size).toBe(65536);
    expect(offsetIn(r, parseIpv4('10.96.255.254')!)).toBe(65534);
    expect(offsetIn(r, parseIpv4('10.97.0.1')!)).toBeUndefined();
  });
});
