import { describe, expect, it } from 'vitest';
import { componentEnv } from './node-flags';

describe('componentEnv', () => {
  it('limits glibc to two malloc arenas, unless the user chose a number', () => {
    expect(componentEnv({})).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(componentEnv({ MALLOC_ARENA_MAX: '8' })).toEqual({});
  });
});
