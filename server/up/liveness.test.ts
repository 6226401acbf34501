import { describe, expect, it } from 'vitest';
import { watchLiveness, type LivenessProbe } from './liveness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** runs watchLiveness for at most `forMs`; resolves with the silence reported at onHung and when, or undefined */
function watch(check: LivenessProbe['check'], opts: { windowMs?: number; initialDelayMs?: number; forMs: number }): Promise<{ silentMs: number; atMs: number } | undefined> {
  return new Promise((resolve) => {
    const ac = new AbortController();
    const t0 = Date.now();
    const end = setTimeout(() => { ac.abort(); resolve(undefined); }, opts.forMs);
    watchLiveness({ periodMs: 5, windowMs: opts.windowMs ?? 60, initialDelayMs: opts.initialDelayMs ?? 10_000, check }, ac.signal, (silentMs) => {
      clearTimeout(end); ac.abort(); resolve({ silentMs, atMs: Date.now() - t0 });
    });
  });
}

describe('liveness', () => {
  it('a component that answered and then falls silent is declared hung once the window passes without an answer', async () => {
    const t0 = Date.now();
    const hung = await watch(async () => Date.now() - t0 < 50, { forMs: 2_000 });
    expect(hung?.silentMs).toBeGreaterThanOrEqual(60);
    expect(hung?.atMs).toBeLessThan(1_000);
  });

  it('slow answers (each later than the period, within the window) keep it alive', async () => {
    expect(await watch(async () => { await sleep(40); return true; }, { forMs: 400 })).toBeUndefined();
  });

  it('a component still starting (never answered) is not hung before the initial delay, and is after it', async () => {
    expect(await watch(async () => false, { initialDelayMs: 300, forMs: 250 })).toBeUndefined();
    const hung = await watch(async () => false, { initialDelayMs: 300, forMs: 2_000 });
    expect(hung?.atMs).toBeGreaterThanOrEqual(300);
  });

  it('a probe that throws or never settles is no answer', async () => {
    let n = 0;
    expect(await watch(async () => { if (n++ === 0) return true; throw new Error('refused'); }, { forMs: 2_000 })).toMatchObject({ silentMs: expect.any(Number) });
    let m = 0;
    expect(await watch(() => (m++ === 0 ? Promise.resolve(true) : new Promise<boolean>(() => undefined)), { forMs: 2_000 })).toMatchObject({ silentMs: expect.any(Number) });
  });
});
