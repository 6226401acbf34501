import { describe, expect, it } from 'vitest';
import { formatBytes, parseQuantity, quantityCeil } from './quantity';

describe('parseQuantity', () => {
  it.each([
    ['1Gi', 2 ** 30], ['128Mi', 128 * 2 ** 20], ['100m', 0.1], ['2', 2], [2, 2], ['1e3', 1000],
    ['1.5Gi', 1.5 * 2 ** 30], ['1M', 1e6], ['.5', 0.5], ['1k', 1000], ['2Ei', 2 * 2 ** 60], ['3E', 3e18], ['1Pi', 2 ** 50],
  ] as const)('%s → %s', (q, want) => {
    expect(parseQuantity(q)).toBeCloseTo(want);
  });

  it.each(['', 'abc', '1GB', '1 Gi', 'Gi', {}, null, Number.NaN, '1e999999'])('rejects %j', (q) => {
    expect(parseQuantity(q)).toBeUndefined();
  });
});

describe('quantityCeil', () => {
  it.each([['100m', 1], ['1', 1], ['1500m', 2], ['2', 2]] as const)('%s → %s', (q, want) => {
    expect(quantityCeil(q)).toBe(want);
  });
});

describe('formatBytes', () => {
  it.each([[2 ** 30, '1Gi'], [512 * 2 ** 20, '512Mi'], [1.5 * 2 ** 30, '1.5Gi'], [100, '100']] as const)('%s → %s', (b, want) => {
    expect(formatBytes(b)).toBe(want);
  });
});
