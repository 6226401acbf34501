import { describe, expect, it } from 'vitest';
import { ItemExponentialRateLimiter } from './rate-limiter';
import { runWorkers, WorkQueue } from './workqueue';

async function waitFor(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('WorkQueue', () => {
  it('coalesces adds of a waiting key', async () => {
    const q = new WorkQueue();
    q.add('a');
    q.add('b');
    q.add('a');
    expect(q.length).toBe(2);
    expect(await q.get()).toBe('a');
    expect(await q.get()).toBe('b');
  });

  it('hands a key to one worker at a time and re-queues an add made during processing', async () => {
    const q = new WorkQueue();
    q.add('a');
    const key = await q.get();
    q.add('a');
    expect(q.length).toBe(0); // not handed out again while processing
    q.done(key!);
    expect(q.length).toBe(1);
    expect(await q.get()).toBe('a');
  });

  const drain = async (q: WorkQueue) => { const out: string[] = []; while (q.length > 0) { const k = (await q.get())!; out.push(k); q.done(k); } return out; };

  it.each([
    ['a new urgent key goes before the backlog', (q: WorkQueue) => q.addUrgent('u'), ['u', 'a', 'b', 'c']],
    ['a waiting key moves to the front, once', (q: WorkQueue) => { q.addUrgent('c'); q.add('c'); }, ['c', 'a', 'b']],
    ['urgent keys keep their own order', (q: WorkQueue) => { q.addUrgent('c'); q.addUrgent('b'); q.addUrgent('c'); }, ['c', 'b', 'a']],
  ])('addUrgent: %s', async (_name, act, order) => {
    const q = new WorkQueue();
    ['a', 'b', 'c'].forEach((k) => q.add(k));
    act(q);
    expect(await drain(q)).toEqual(order);
  });

  it('addUrgent during processing re-queues the key at the front when it is done', async () => {
    const q = new WorkQueue();
    q.add('x');
    const key = (await q.get())!;
    ['a', 'b'].forEach((k) => q.add(k));
    q.addUrgent('x');
    expect(q.length).toBe(2); // not handed out again while processing
    q.done(key);
    expect(await drain(q)).toEqual(['x', 'a', 'b']);
  });

  it('never runs the same key concurrently across workers', async () => {
    const q = new WorkQueue();
    let running = 0;
    let maxRunning = 0;
    let calls = 0;
    const workers = runWorkers(q, 4, async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      calls++;
      await new Promise((r) => setTimeout(r, 5));
      running--;
    });
    for (let i = 0; i < 20; i++) {
      q.add('same');
      await new Promise((r) => setTimeout(r, 1));
    }
    await waitFor(() => running === 0 && q.length === 0);
    q.shutdown();
    await workers;
    expect(maxRunning).toBe(1);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(calls).toBeLessThan(20);
  });

  it('addAfter keeps the earliest due time per key', async () => {
    const q = new WorkQueue();
    q.addAfter('k', 10_000);
    q.addAfter('k', 5);
    const start = Date.now();
    expect(await q.get()).toBe('k');
    expect(Date.now() - start).toBeLessThan(1000);
    q.done('k');
    q.addAfter('k', 5);
    q.addAfter('k', 10_000); // later: ignored, key still due soon
    expect(await q.get()).toBe('k');
  });

  it('shutdown releases waiting getters with undefined and drops further adds', async () => {
    const q = new WorkQueue();
    const pending = q.get();
    q.shutdown();
    expect(await pending).toBeUndefined();
    q.add('x');
    expect(await q.get()).toBeUndefined();
  });

  it('addRateLimited backs off per key and forget resets it', async () => {
    const q = new WorkQueue(new ItemExponentialRateLimiter(1, 1000));
    q.addRateLimited('a');
    expect(await q.get()).toBe('a');
    q.done('a');
    q.addRateLimited('a');
    expect(q.numRequeues('a')).toBe(2);
    q.forget('a');
    expect(q.numRequeues('a')).toBe(0);
    q.shutdown();
  });
});

describe('ItemExponentialRateLimiter', () => {
  it.each([
    [1, 5],
    [2, 10],
    [3, 20],
    [10, 2560],
    [40, 1_000_000],
  ])('failure #%i waits %i ms (5 ms doubling, capped at 1000 s)', (n, ms) => {
    const r = new ItemExponentialRateLimiter();
    let last = 0;
    for (let i = 0; i < n; i++) last = r.when('k');
    expect(last).toBe(ms);
  });

  it('keeps keys independent', () => {
    const r = new ItemExponentialRateLimiter();
    r.when('a');
    r.when('a');
    expect(r.when('b')).toBe(5);
  });
});
