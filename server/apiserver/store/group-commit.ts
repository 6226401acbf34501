/**
 * Group commit: writes submitted while the event loop is busy (one turn) are applied in
 * submission order inside one transaction, so they share one COMMIT. When the backend syncs
 * apart from its COMMIT (`sync`: the SQLite driver's fdatasync of the WAL on libuv's thread
 * pool), the event loop keeps serving requests meanwhile, and the writes submitted while a sync
 * runs wait and are committed together when it returns, then share the next sync: they could
 * not be acknowledged before that sync anyway, and one transaction for all of them costs less
 * CPU than one per loop turn (a create spends ~15 % of its CPU in the transaction). A write's promise settles, and its
 * after-commit step runs (index update, watch event), only once a sync that started after
 * its COMMIT has returned: an acknowledged write is durable, and batches settle in order.
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
  /**
   * makes everything committed so far durable (off the event loop); without it a COMMIT is
   * taken as durable by itself (memory driver, or a database that syncs in its COMMIT)
   */
  sync?: () => Promise<void>;
  /** the same, synchronously (used when the store closes with syncs pending) */
  syncNow?: () => void;
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
  private syncs = 0;
  /** committed batches waiting for a sync, and whether one is running */
  private unsynced: Array<(err?: unknown) => void> = [];
  private syncing = false;
  /** a failed sync leaves the database in doubt: every later write is refused */
  private failed: unknown;

  constructor(private readonly transact: Transact, private readonly opts: GroupCommitOptions) {}

  /**
   * Queues a write. `apply` runs inside the batch's transaction and returns the write's result
   * or throws; `committed` runs after the COMMIT, in batch order, before any promise settles
   * (the store publishes watch events there).
   */
  submit<T>(apply: () => T, committed?: (value: T) => void): Promise<T> {
    if (this.failed !== undefined) return Promise.reject(this.failed);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ apply, committed, resolve, reject } as Pending<unknown>);
      if (this.scheduled) return;
      this.scheduled = true;
      (this.opts.schedule ?? setImmediate)(() => this.flush());
    });
  }

  /** commits what is queued now, or when the running sync returns (drain commits at once) */
  flush(): void {
    // still scheduled: the sync's end flushes (it would cover nothing committed now anyway)
    if (this.syncing && !this.drained) return;
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
    let settled = false;
    const settle = (syncErr?: unknown) => {
      if (settled) return;
      settled = true;
      if (syncErr !== undefined) batch.forEach((p) => p.reject(syncErr));
      else this.settle(batch, outcomes);
    };
    if (!this.opts.sync) return settle();
    this.unsynced.push(settle);
    if (!this.syncing) this.startSync();
  }

  /** commits what is queued and makes every committed batch durable now, synchronously */
  drain(): void {
    this.drained = true;
    this.flush();
    if (this.unsynced.length === 0 && !this.syncing) return;
    this.opts.syncNow?.();
    this.syncs++;
    for (const settle of this.unsynced.splice(0)) settle();
    for (const settle of this.inFlight.splice(0)) settle();
  }

  /** set by drain (the store closing): a sync still running then reports on a closed file */
  private drained = false;
  /** the batches the running sync covers (settled by it, or by drain) */
  private inFlight: Array<(err?: unknown) => void> = [];

  private startSync(): void {
    this.syncing = true;
    const covered = this.unsynced;
    this.unsynced = [];
    this.inFlight = covered;
    this.opts.sync!().then(
      () => {
        this.syncs++;
        for (const settle of covered) settle();
      },
      (err: unknown) => {
        if (this.drained) return; // covered by drain's own sync already
        this.failed = err;
        logger.error({ err }, 'store sync failed: refusing every write from now on');
        for (const settle of covered) settle(err);
      },
    ).finally(() => {
      this.syncing = false;
      this.inFlight = [];
      if (this.failed !== undefined) {
        for (const settle of this.unsynced.splice(0)) settle(this.failed);
        for (const p of this.queue.splice(0)) p.reject(this.failed);
        this.scheduled = false;
        return;
      }
      if (this.scheduled) this.flush(); // commits what waited for this sync, and starts the next
      if (this.unsynced.length > 0 && !this.syncing) this.startSync();
    });
  }

  private settle(batch: Array<Pending<unknown>>, outcomes: Outcome[]): void {
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

  /** committed batches, the writes they held (writes / batches = the batching factor) and syncs */
  stats(): { batches: number; writes: number; syncs: number } {
    return { batches: this.batches, writes: this.writes, syncs: this.syncs };
  }
}
