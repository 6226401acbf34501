/**
 * Group commit: writes submitted while the event loop is busy (one turn) are applied in
 * submission order inside one transaction, so they share one COMMIT (one WAL fsync with
 * synchronous=FULL). A write's promise settles only after that COMMIT returned: an
 * acknowledged write is durable. The whole batch runs synchronously (BEGIN, every write,
 * COMMIT), so no read can see a write before it is durable.
 *
 * Each write's own checks (create-exists, compare-and-swap) run at its turn in the batch,
 * against the state left by the writes before it: they stay exact. A write refused by its
 * checks (a "write error", see isWriteError) fails alone; any other error aborts the batch
 * (rolled back, every write in it rejected with that error), since the database is in doubt.
 */

import { log } from '../../log';

const logger = log.child({ component: 'apiserver-store' });

/** runs fn in one transaction: commits when it returns, rolls back and rethrows when it throws */
export type Transact = (fn: () => void) => void;

interface Pending<T> {
  apply: () => T;
  committed?: (value: T) => void;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

export interface GroupCommitOptions {
  /** true for errors that refuse one write only (conflicts, not found, exists) */
  isWriteError: (err: unknown) => boolean;
  /** when the batch runs; default setImmediate (after the I/O callbacks of this loop turn) */
  schedule?: (run: () => void) => void;
}

export class GroupCommit {
  private queue: Array<Pending<unknown>> = [];
  private scheduled = false;
  private batches = 0;
  private writes = 0;

  constructor(private readonly transact: Transact, private readonly opts: GroupCommitOptions) {}

  /**
   * Queues a write. `apply` runs inside the batch's transaction and returns the write's result
   * or throws; `committed` runs after the COMMIT, in batch order, before any promise settles
   * (the store publishes watch events there).
   */
  submit<T>(apply: () => T, committed?: (value: T) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ apply, committed, resolve, reject } as Pending<unknown>);
      if (this.scheduled) return;
      this.scheduled = true;
      (this.opts.schedule ?? setImmediate)(() => this.flush());
    });
  }

  /** commits what is queued now (also used before closing the store) */
  flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    const outcomes: Outcome[] = [];
    try {
      this.transact(() => {
        for (const p of batch) {
          try {
            outcomes.push({ ok: true, value: p.apply() });
          } catch (err) {
            if (!this.opts.isWriteError(err)) throw err;
            outcomes.push({ ok: false, err });
          }
        }
      });
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    this.batches++;
    this.writes += batch.length;
    batch.forEach((p, i) => {
      const o = outcomes[i];
      try {
        if (o.ok) p.committed?.(o.value);
      } catch (err) {
        logger.error({ err }, 'after-commit step failed');
      }
    });
    batch.forEach((p, i) => {
      const o = outcomes[i];
      if (o.ok) p.resolve(o.value);
      else p.reject(o.err);
    });
  }

  /** committed batches and the writes they held (writes / batches = the batching factor) */
  stats(): { batches: number; writes: number } {
    return { batches: this.batches, writes: this.writes };
  }
}
