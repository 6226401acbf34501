import type { KubernetesObject } from '@kubernetes/client-node';
import { log } from '../log';
import { feedFor, type FeedOptions } from './list-watch-feed';
import { ObjectStore, type IndexFunc, type StoreEvent } from './object-store';

export interface InformerOptions<T> extends FeedOptions {
  indexers?: Record<string, IndexFunc<T>>;
}

export interface InformerHandlers<T> {
  add?(obj: T): void;
  update?(old: T, obj: T): void;
  delete?(obj: T): void;
}

/**
 * List-then-watch into an ObjectStore, with what client-node's ListWatch lacks: hasSynced and
 * waitForSync, old objects on update, restart with backoff after any error, relist after 410 Gone,
 * and a stop through an AbortSignal. Handlers should only enqueue keys (see controller.ts).
 */
export class Informer<T extends KubernetesObject> {
  readonly store: ObjectStore<T>;
  private readonly handlers = new Set<InformerHandlers<T>>();
  private synced = false;
  private readonly syncWaiters: (() => void)[] = [];
  private readonly log;

  constructor(private readonly opts: InformerOptions<T>) {
    this.store = new ObjectStore<T>(opts.indexers);
    this.log = log.child({ component: 'informer', path: opts.path });
  }

  /** Register handlers; returns an unsubscribe function. Objects already cached are not replayed. */
  on(handlers: InformerHandlers<T>): () => void {
    this.handlers.add(handlers);
    return () => this.handlers.delete(handlers);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves true once the first list is in the cache, false if the signal aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = () => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.syncWaiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      });
    });
  }

  get(key: string): T | undefined {
    return this.store.get(key);
  }

  list(filter?: (obj: T) => boolean): T[] {
    return this.store.list(filter);
  }

  byIndex(index: string, value: string): T[] {
    return this.store.byIndex(index, value);
  }

  /** Runs until the signal aborts; never rejects. Informers of one KubeConfig on the same collection and selectors share one list/watch (list-watch-feed.ts). */
  run(signal: AbortSignal): Promise<void> {
    return feedFor<T>(this.opts).join({
      replace: (items) => {
        this.dispatch(this.store.replace(items));
        if (!this.synced) {
          this.synced = true;
          this.syncWaiters.splice(0).forEach((w) => w());
        }
      },
      apply: (phase, obj) => this.dispatch([phase === 'DELETED' ? this.store.remove(obj) : this.store.upsert(obj)]),
    }, signal);
  }

  private dispatch(events: (StoreEvent<T> | undefined)[]): void {
    for (const ev of events) {
      if (!ev) continue;
      for (const h of this.handlers) {
        try {
          if (ev.type === 'add') h.add?.(ev.obj);
          else if (ev.type === 'update') h.update?.(ev.old, ev.obj);
          else h.delete?.(ev.obj);
        } catch (err) {
          this.log.error({ err }, 'informer handler threw');
        }
      }
    }
  }
}
