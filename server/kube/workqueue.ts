import { ItemExponentialRateLimiter } from './rate-limiter';

/**
 * What a queue reports to its metrics (client-go's workqueue MetricsProvider, in our shape): one
 * instance per queue. Durations are in seconds.
 */
export interface WorkQueueMetrics {
  /** a key became dirty (an add that was not coalesced into a waiting one) */
  added(): void;
  /** keys waiting to be handed out */
  depth(n: number): void;
  /** a key was handed to a worker after waiting this long */
  queued(seconds: number): void;
  /** a worker finished a key after working on it this long */
  worked(seconds: number): void;
  /** a key was re-added with backoff after a failure */
  retried(): void;
}

/** Makes the metrics of one named queue; `inFlightSince` reads the start times (ms) of the keys being processed. */
export type WorkQueueMetricsProvider = (name: string, inFlightSince: () => number[]) => WorkQueueMetrics;

export interface WorkQueueOptions {
  limiter?: ItemExponentialRateLimiter;
  /** the queue's name in its metrics (KubeVirt's: virt-controller-vmi, …) */
  name?: string;
  metrics?: WorkQueueMetricsProvider;
}

/**
 * A rate-limited work queue with client-go's guarantees: a key waiting in the queue is stored once
 * (adds coalesce), a key is processed by one worker at a time (an add during processing is
 * queued again when `done` is called), delayed adds keep the earliest due time per key, and
 * failures back off per key (`addRateLimited`, reset by `forget`).
 */
export class WorkQueue {
  /** Urgent keys (a user's action) are handed out before the rest, first come first served. */
  private readonly front: string[] = [];
  private readonly queue: string[] = [];
  private readonly urgentWhileProcessing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly waiting = new Map<string, { due: number; timer: NodeJS.Timeout }>();
  private readonly getters: ((key: string | undefined) => void)[] = [];
  private shuttingDown = false;
  readonly limiter: ItemExponentialRateLimiter;
  private readonly metrics?: WorkQueueMetrics;
  /** when each waiting key was queued and each processing key was handed out (ms); kept only with metrics */
  private readonly queuedAt = new Map<string, number>();
  private readonly startedAt = new Map<string, number>();

  constructor(opts: WorkQueueOptions | ItemExponentialRateLimiter = {}) {
    const o = opts instanceof ItemExponentialRateLimiter ? { limiter: opts } : opts;
    this.limiter = o.limiter ?? new ItemExponentialRateLimiter();
    if (o.metrics) this.metrics = o.metrics(o.name ?? 'workqueue', () => [...this.startedAt.values()]);
  }

  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    this.metrics?.added();
    if (this.processing.has(key)) return;
    this.push(key);
  }

  /**
   * Add ahead of every non-urgent key (client-go has no priorities; KubeVirt waits behind the
   * backlog). A key already waiting moves to the front; a key being processed goes to the front
   * when it is done.
   */
  addUrgent(key: string): void {
    if (this.shuttingDown || this.front.includes(key)) return;
    if (this.processing.has(key)) {
      if (!this.dirty.has(key)) this.metrics?.added();
      this.dirty.add(key);
      this.urgentWhileProcessing.add(key);
      return;
    }
    if (this.dirty.has(key)) {
      const at = this.queue.indexOf(key);
      if (at >= 0) this.queue.splice(at, 1);
    } else {
      this.metrics?.added();
    }
    this.dirty.add(key);
    this.push(key, true);
  }

  /** Add after `ms`; if the key is already waiting, the earlier due time wins. */
  addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) return this.add(key);
    const due = Date.now() + ms;
    const current = this.waiting.get(key);
    if (current && current.due <= due) return;
    if (current) clearTimeout(current.timer);
    const timer = setTimeout(() => {
      this.waiting.delete(key);
      this.add(key);
    }, ms);
    timer.unref?.();
    this.waiting.set(key, { due, timer });
  }

  /** Add after this key's next backoff delay (5 ms, 10 ms, 20 ms, … up to 1000 s). */
  addRateLimited(key: string): void {
    this.metrics?.retried();
    this.addAfter(key, this.limiter.when(key));
  }

  /** Reset a key's failure count (call after a successful sync). */
  forget(key: string): void {
    this.limiter.forget(key);
  }

  numRequeues(key: string): number {
    return this.limiter.numRequeues(key);
  }

  /** The next key to process, marked as processing; undefined once the queue is shut down. */
  get(): Promise<string | undefined> {
    if (this.length > 0) return Promise.resolve(this.take());
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.getters.push(resolve));
  }

  /** Mark a key's processing finished; re-queues it when it was added meanwhile. */
  done(key: string): void {
    this.processing.delete(key);
    if (this.metrics) {
      const started = this.startedAt.get(key);
      this.startedAt.delete(key);
      if (started !== undefined) this.metrics.worked((performance.now() - started) / 1000);
    }
    const urgent = this.urgentWhileProcessing.delete(key);
    if (this.dirty.has(key) && !this.shuttingDown) this.push(key, urgent);
  }

  get length(): number {
    return this.front.length + this.queue.length;
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Stop handing out keys; pending waiters get undefined, delayed adds are dropped. */
  shutdown(): void {
    this.shuttingDown = true;
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    this.queue.length = 0;
    this.front.length = 0;
    this.queuedAt.clear();
    this.metrics?.depth(0);
    this.getters.splice(0).forEach((g) => g(undefined));
  }

  private push(key: string, urgent = false): void {
    if (this.metrics && !this.queuedAt.has(key)) this.queuedAt.set(key, performance.now());
    const getter = this.getters.shift();
    if (getter) {
      this.handOut(key);
      getter(key);
    } else {
      (urgent ? this.front : this.queue).push(key);
      this.metrics?.depth(this.length);
    }
  }

  private take(): string {
    const key = (this.front.length > 0 ? this.front.shift() : this.queue.shift())!;
    this.handOut(key);
    this.metrics?.depth(this.length);
    return key;
  }

  private handOut(key: string): void {
    this.dirty.delete(key);
    this.processing.add(key);
    if (!this.metrics) return;
    const now = performance.now();
    this.metrics.queued((now - (this.queuedAt.get(key) ?? now)) / 1000);
    this.queuedAt.delete(key);
    this.startedAt.set(key, now);
  }
}

/** Run `n` workers: each takes a key, awaits `handle(key)`, then marks it done; resolves after shutdown. */
export async function runWorkers(queue: WorkQueue, n: number, handle: (key: string) => Promise<void>): Promise<void> {
  const worker = async () => {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      try {
        await handle(key);
      } finally {
        queue.done(key);
      }
    }
  };
  await Promise.all(Array.from({ length: n }, worker));
}
