/** Exponential backoff with a cap and ±jitter, for restarting long-lived loops (watches, sockets). */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly baseMs = 200,
    private readonly maxMs = 30_000,
    private readonly jitter = 0.2,
  ) {}

  /** The delay before the next attempt; grows with each call until reset(). */
  next(): number {
    const raw = Math.min(this.maxMs, this.baseMs * 2 ** this.attempt);
    this.attempt++;
    const spread = raw * this.jitter;
    return Math.round(raw - spread + Math.random() * 2 * spread);
  }

  reset(): void {
    this.attempt = 0;
  }
}

/** Resolves after `ms`, or at once when the signal aborts (never rejects). */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
