/**
 * Per-key exponential failure backoff, like client-go's ItemExponentialFailureRateLimiter:
 * base * 2^failures, capped (default 5 ms → 1000 s). `forget` resets a key after a success.
 */
export class ItemExponentialRateLimiter {
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly baseMs = 5,
    private readonly maxMs = 1_000_000,
  ) {}

  when(key: string): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    return Math.min(this.maxMs, this.baseMs * 2 ** n);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  forget(key: string): void {
    this.failures.delete(key);
  }
}
