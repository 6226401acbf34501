import { describe, expect, it } from 'vitest';
import { isPostcopyLost, shouldStartPostcopy } from './domain-migration';

describe('post-copy state handling', () => {
  it('a paused or recovering post-copy loses the guest, switched or not (QEMU only gets there after the switch)', () => {
    expect(isPostcopyLost({ status: 'postcopy-paused' }, true)).toBe(true);
    expect(isPostcopyLost({ status: 'postcopy-paused' }, false)).toBe(true);
    expect(isPostcopyLost({ status: 'postcopy-recover' }, true)).toBe(true);
  });

  it('a failure after the switch loses the guest; before it the source keeps running it', () => {
    expect(isPostcopyLost({ status: 'failed' }, true)).toBe(true);
    expect(isPostcopyLost({ status: 'failed' }, false)).toBe(false);
    expect(isPostcopyLost({ status: 'cancelled' }, false)).toBe(false);
  });

  it('running states, a running post-copy and a completed one are not lost', () => {
    for (const status of ['active', 'postcopy-active', 'completed', 'pre-switchover']) expect(isPostcopyLost({ status }, true)).toBe(false);
  });

  it('switches only when allowed, from pre-copy, after enough passes', () => {
    const passes = { status: 'active', dirtySyncCount: 3 };
    expect(shouldStartPostcopy(passes, { allowPostCopy: true })).toBe(true);
    expect(shouldStartPostcopy(passes, { allowPostCopy: false })).toBe(false);
    expect(shouldStartPostcopy({ ...passes, status: 'postcopy-active' }, { allowPostCopy: true })).toBe(false);
    expect(shouldStartPostcopy({ status: 'active', dirtySyncCount: 1 }, { allowPostCopy: true })).toBe(false);
  });
});
