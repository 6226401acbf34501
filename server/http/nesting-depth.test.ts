import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, nestingDepth, nestsTooDeep } from './nesting-depth';

const nest = (n: number): unknown => { let v: unknown = 1; for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v }; return v; };

describe('nesting depth', () => {
  it.each([[0, 0], [1, 1], [5, 5], [MAX_NESTING_DEPTH, MAX_NESTING_DEPTH]])('a value nested %i deep measures %i', (n, want) => {
    expect(nestingDepth(nest(n))).toBe(want);
  });

  it('a million levels are measured without overflowing the stack, and are too deep', () => {
    expect(nestsTooDeep(nest(1_000_000))).toBe(true);
  });

  it('the limit itself is allowed', () => {
    expect(nestsTooDeep(nest(MAX_NESTING_DEPTH))).toBe(false);
    expect(nestsTooDeep(nest(MAX_NESTING_DEPTH + 1))).toBe(true);
  });
});
