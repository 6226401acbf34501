import { log } from '../../log';
import { hasPrefix, toStoreEvent, type LogRow } from './log-row';
import type { StoreEvent, WatchOptions } from './types';

const logger = log.child({ component: 'apiserver-store' });

/** Rows read from the log per replay step before yielding to the event loop. */
const REPLAY_PAGE = 500;
export const DEFAULT_WATCH_BUFFER_LIMIT = 10_000;

type ReadRows = (q: { prefix: string; after: number; until: number; limit: number }) => LogRow[];

interface Watcher {
  prefix: string;
  opts: WatchOptions;
  /** revision of the last event delivered (or read from the log) */
  cursor: number;
  /** rows up to here come from the log (replay); later ones from the live queue */
  replayUntil: number;
  queue: StoreEvent[];
  head: number;
  pumping: boolean;
  closed: boolean;
}

/**
 * The one fan-out of committed rows to watchers. Each watcher first replays the log
 * (after its revision, up to the revision it registered at) page by page, then drains
 * its queue of live events: no gap and no duplicate in between, since rows newer than
 * the registration revision are only ever queued. A watcher whose queue exceeds the
 * limit is dropped (onDropped: the client relists).
 */
export class Broadcaster {
  private readonly watchers = new Set<Watcher>();

  constructor(private readonly readRows: ReadRows, private readonly bufferLimit = DEFAULT_WATCH_BUFFER_LIMIT) {}

  get size(): number {
    return this.watchers.size;
  }

  add(prefix: string, opts: WatchOptions, fromRevision: number, currentRevision: number): void {
    const replayUntil = Math.max(fromRevision, currentRevision);
    const w: Watcher = { prefix, opts, cursor: fromRevision, replayUntil, queue: [], head: 0, pumping: false, closed: false };
    this.watchers.add(w);
    opts.signal.addEventListener('abort', () => this.remove(w), { once: true });
    this.schedule(w);
  }

  publish(row: LogRow): void {
    if (this.watchers.size === 0) return;
    const event = toStoreEvent(row);
    for (const w of this.watchers) {
      if (!hasPrefix(row.name, w.prefix) || row.id <= w.replayUntil) continue;
      w.queue.push(event);
      if (w.queue.length - w.head > this.bufferLimit) this.drop(w, 'watcher fell behind');
      else this.schedule(w);
    }
  }

  /** Watchers still replaying below a compacted revision may miss rows: they must relist. */
  dropReplayingBelow(rev: number): void {
    for (const w of this.watchers) if (w.cursor < w.replayUntil && w.cursor < rev) this.drop(w, 'replay compacted');
  }

  closeAll(): void {
    for (const w of this.watchers) this.remove(w);
  }

  private remove(w: Watcher): void {
    w.closed = true;
    w.queue = [];
    this.watchers.delete(w);
  }

  private drop(w: Watcher, reason: string): void {
    if (w.closed) return;
    logger.info({ prefix: w.prefix, cursor: w.cursor, pending: w.queue.length - w.head, reason }, 'watcher dropped');
    this.remove(w);
    const onDropped = w.opts.onDropped;
    if (onDropped) queueMicrotask(onDropped);
  }

  private schedule(w: Watcher): void {
    if (w.pumping || w.closed) return;
    w.pumping = true;
    queueMicrotask(() => void this.pump(w));
  }

  private nextLive(w: Watcher): StoreEvent | undefined {
    if (w.head >= w.queue.length) {
      w.queue = [];
      w.head = 0;
      return undefined;
    }
    const e = w.queue[w.head++];
    if (w.head > 1024 && w.head * 2 > w.queue.length) {
      w.queue = w.queue.slice(w.head);
      w.head = 0;
    }
    return e;
  }

  private async deliver(w: Watcher, e: StoreEvent): Promise<void> {
    try {
      const r = w.opts.onEvent(e);
      if (r instanceof Promise) await r;
      w.cursor = e.kv.modRevision;
    } catch (err) {
      logger.warn({ err, prefix: w.prefix }, 'watch consumer failed');
      this.drop(w, 'consumer failed');
    }
  }

  private async pump(w: Watcher): Promise<void> {
    try {
      await this.drain(w);
    } catch (err) {
      logger.warn({ err, prefix: w.prefix }, 'watch replay failed');
      this.drop(w, 'replay failed');
    }
    w.pumping = false;
  }

  private async drain(w: Watcher): Promise<void> {
    while (!w.closed) {
      if (w.cursor < w.replayUntil) {
        const rows = this.readRows({ prefix: w.prefix, after: w.cursor, until: w.replayUntil, limit: REPLAY_PAGE });
        for (const row of rows) if (!w.closed) await this.deliver(w, toStoreEvent(row));
        if (rows.length < REPLAY_PAGE) w.cursor = Math.max(w.cursor, w.replayUntil);
        else await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      const e = this.nextLive(w);
      if (!e) return;
      await this.deliver(w, e);
    }
  }
}
