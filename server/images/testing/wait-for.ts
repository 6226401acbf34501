/** Polls a condition until it holds or the bound passes (tests never sleep blindly). */
import { setTimeout as delay } from 'node:timers/promises';

export async function waitFor(check: () => boolean, opts: { timeoutMs: number; what: string; intervalMs?: number }): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${opts.what}`);
    await delay(opts.intervalMs ?? 20);
  }
}

export async function waitForAsync(check: () => Promise<boolean>, opts: { timeoutMs: number; what: string; intervalMs?: number }): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${opts.what}`);
    await delay(opts.intervalMs ?? 100);
  }
}
