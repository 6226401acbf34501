/**
 * A de-duplicating work queue of keys, drained one at a time by an async worker.
 * Failed keys are retried after a delay; nothing runs after stop().
 */
export class KeyQueue {
  private pending = new Set<string>();
  private running = false;
  private stopped = false;
  private timers = new Set<NodeJS.Timeout>();

  constructor(private readonly work: (key: string) => Promise<void>, private readonly onError: (key: string, err: unknown) => void, private readonly retryMs = 1000) {}

  add(key: string): void {
    if (this.stopped) return;
    this.pending.add(key);
    if (!this.running) { this.running = true; setImmediate(() => void this.drain()); }
  }

  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    const t = setTimeout(() => { this.timers.delete(t); this.add(key); }, ms);
    this.timers.add(t);
  }

  stop(): void {
    this.stopped = true;
    this.pending.clear();
    for (const t of this.timers) clearTimeout(t);
  }

  private async drain(): Promise<void> {
    while (!this.stopped && this.pending.size) {
      const key = this.pending.values().next().value as string;
      this.pending.delete(key);
      try {
        await this.work(key);
      } catch (err) {
        this.onError(key, err);
        this.addAfter(key, this.retryMs);
      }
    }
    this.running = false;
  }
}
