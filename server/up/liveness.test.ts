import { describe, expect, it } from 'vitest';
import { watchLiveness } from './liveness';

/** drives watchLiveness with a scripted sequence of probe answers; resolves with the failures count at onHung, or undefined */
function run(answers: boolean[], opts: { failureThreshold?: number; initialDelayMs?: number } = {}): Promise<number | undefined> {
  return new Promise((resolve) => {
    const ac = new AbortController();
    let i = 0;
    watchLiveness({
      periodMs: 1, timeoutMs: 1, failureThreshold: opts.failureThreshold ?? 3, initialDelayMs: opts.initialDelayMs ?? 60_000,
      check: async () => {
        if (i >= answers.length) { ac.abort(); resolve(undefined); return true; }
        return answers[i++];
      },
    }, ac.signal, (failures) => { ac.abort(); resolve(failures); });
  });
}

describe('liveness', () => {
  it.each([
    ['three failures after a success', [true, false, false, false], 3],
    ['a success in between resets the count', [true, false, false, true, false, false], undefined],
    ['failures while still starting (never answered, within the initial delay) are not counted', [false, false, false, false], undefined],
  ])('%s', async (_name, answers, want) => {
    expect(await run(answers)).toBe(want);
  });

  it('a component that never answers is declared hung once the initial delay has passed', async () => {
    expect(await run([false, false, false, false, false], { initialDelayMs: 0 })).toBe(3);
  });

  it('a probe that throws counts as a failure', async () => {
    const ac = new AbortController();
    const failures = await new Promise<number>((resolve) => {
      let n = 0;
      watchLiveness({ periodMs: 1, failureThreshold: 2, initialDelayMs: 0, check: async () => { if (n++ > 10) throw new Error('boom'); throw new Error('refused'); } }, ac.signal, resolve);
    });
    ac.abort();
    expect(failures).toBe(2);
  });
});
