/**
 * Picking a free value from a range the way kube-apiserver's bitmap allocators do: a requested value
 * must be free and inside; a dynamic one is drawn at random from the upper part of the range first,
 * so the lower band stays free for values users ask for (10.96.0.10 for DNS, say).
 */

export interface IntRange {
  /** first usable value */
  first: number;
  /** last usable value */
  last: number;
}

export type Pick = { ok: true; value: number } | { ok: false; error: 'allocated' | 'range' | 'full' };

/** kube's calculateRangeOffset: min(max(16, size/16), cap) values at the bottom reserved for static picks */
export function staticBand(size: number, cap: number): number {
  return Math.min(Math.max(16, Math.floor(size / 16)), cap);
}

export interface PickInput {
  range: IntRange;
  used: ReadonlySet<number>;
  requested?: number;
  /** values at the range's start preferred for static requests */
  band: number;
  random?: () => number;
}

export function pickValue(input: PickInput): Pick {
  const { range, used } = input;
  if (input.requested !== undefined) {
    if (input.requested < range.first || input.requested > range.last) return { ok: false, error: 'range' };
    return used.has(input.requested) ? { ok: false, error: 'allocated' } : { ok: true, value: input.requested };
  }
  const split = Math.min(range.first + input.band, range.last + 1);
  const value = randomFree({ first: split, last: range.last }, used, input.random) ?? randomFree({ first: range.first, last: split - 1 }, used, input.random);
  return value === undefined ? { ok: false, error: 'full' } : { ok: true, value };
}

/** a random start, then the first free value walking up (wrapping) */
function randomFree(range: IntRange, used: ReadonlySet<number>, random: () => number = Math.random): number | undefined {
  const size = range.last - range.first + 1;
  if (size <= 0) return undefined;
  const start = Math.floor(random() * size);
  for (let i = 0; i < size; i++) {
    const v = range.first + ((start + i) % size);
    if (!used.has(v)) return v;
  }
  return undefined;
}
