import { expect, it, vi } from 'vitest';
import { compactStore, startCompactor } from './compactor';
import { createMemoryStore } from './memory-store';

it.each([
  { writes: 20, keep: 5, expected: 15 },
  { writes: 20, keep: 20, expected: 0 },
  { writes: 20, keep: 50, expected: 0 },
])('compactStore after $writes writes keeping $keep compacts to $expected', async ({ writes, keep, expected }) => {
  const s = createMemoryStore();
  for (let i = 0; i < writes; i++) await s.create(`/k/${i}`, 'v');
  expect(compactStore(s, keep)).toBe(expected);
  expect(s.compactRevision()).toBe(expected);
  expect(s.count('/k/')).toBe(writes);
});

it('the periodic compactor follows the revision until stopped', async () => {
  const s = createMemoryStore();
  let rev = await s.create('/k', '0');
  for (let i = 1; i < 10; i++) rev = await s.update('/k', String(i), rev);
  vi.useFakeTimers();
  try {
    const stop = startCompactor(s, { keepRevisions: 3, intervalMs: 1_000 });
    expect(s.compactRevision()).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(s.compactRevision()).toBe(7);
    stop();
    const more = Promise.all(Array.from({ length: 10 }, (_, i) => s.create(`/more/${i}`, 'v')));
    vi.advanceTimersByTime(5_000);
    expect(s.compactRevision()).toBe(7);
    await more;
    expect(s.currentRevision()).toBe(20);
    expect(s.get('/k')?.value).toBe('9');
  } finally {
    vi.useRealTimers();
  }
});
