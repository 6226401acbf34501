import { afterEach, describe, expect, it, vi } from 'vitest';
import { compactAfterStartup } from './startup-gc';

const g = globalThis as { gc?: () => void };
const had = g.gc;

describe('compactAfterStartup', () => {
  afterEach(() => { vi.useRealTimers(); g.gc = had; });

  it('runs a full collection at each delay when the process exposes gc', () => {
    vi.useFakeTimers();
    const gc = vi.fn();
    g.gc = gc;
    compactAfterStartup([10_000, 60_000]);
    vi.advanceTimersByTime(9_999);
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(gc).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(50_000);
    expect(gc).toHaveBeenCalledTimes(2);
  });

  it('does nothing (and schedules nothing) without --expose-gc', () => {
    vi.useFakeTimers();
    g.gc = undefined;
    compactAfterStartup([1]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
