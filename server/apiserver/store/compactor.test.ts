import { expect, it, vi } from 'vitest';
import { compactStore, startCompactor } from './compactor';
import { createMemoryStore } from './memory-store';

it.each([
  { writes: 20, keep: 5, expected: 15 },
  { writes: 20, keep: 20, expected: 0 },
  { writes: 20, keep: 50, expected: 0 },
])('compactStore after $writes writes keeping $keep compacts to $expected', ({ writes, keep, expected }) => {
  const s = createMemoryStore();
  for (let i = 0; i < writes; i++) s.create(`/k/${i}`, 'v');
  expect(compactStore(s, keep)).toBe(expected);
  expect(s.compactRevision()).toBe(expected);
  expect(s.count('/k/')).toBe(writes);
});

it('the periodic compactor follows the revision until stopped', () => {
  vi.useFakeTimers();
  try {
    const s = createMemoryStore();
    const stop = startCompactor(s, { keepRevisions: 3, intervalMs: 1_000 });
    let rev = s.create('/k', '0');
    for (let i = 1; i < 10; i++) rev = s.update('/k', String(i), rev);
    expect(s.compactRevision()).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(s.compactRevision()).toBe(7);
    stop();
    for (let i = 0; i < 10; i++) s.create(`/more/${i}`, 'v');
    vi.advanceTimersByTime(5_000);
    expect(s.compactRevision()).toBe(7);
    expect(s.get('/k')?.value).toBe('9');
  } finally {
    vi.useRealTimers();
  }
});
