import { statusCodeOf } from './api-errors';
import { Backoff } from './backoff';

/**
 * A call that failed without an answer from the API server (connection refused or reset, a
 * timeout: it is restarting) or with 5xx (it is up but not serving yet), not a refusal to retry on.
 */
export function isUnreachable(err: unknown): boolean {
  const status = statusCodeOf(err);
  if (status !== undefined) return status >= 500;
  // a system error (ECONNREFUSED, ECONNRESET, ETIMEDOUT…), as node and node-fetch report them
  return typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string';
}

/**
 * Runs `fn` again, backing off from 200 ms to 2 s, while the API server cannot be reached, as a
 * Kubernetes component waits for it at start instead of exiting; any other error, and the last
 * one after `timeoutMs`, is thrown. `onRetry` hears each failure (for one log line per retry).
 */
export async function retryWhileUnreachable<T>(fn: () => Promise<T>, opts: { timeoutMs?: number; onRetry?: (err: unknown) => void; sleep?: (ms: number) => Promise<void> } = {}): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const backoff = new Backoff(200, 2_000, 0);
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (!isUnreachable(err) || Date.now() >= deadline) throw err;
      opts.onRetry?.(err);
      await sleep(backoff.next());
    }
  }
}
