import { Watch, type KubeConfig, type KubernetesListObject, type KubernetesObject, type V1Status } from '@kubernetes/client-node';
import { log } from '../log';
import { isGone, messageOf } from './api-errors';
import { Backoff, delay } from './backoff';
import { ObjectStore, type IndexFunc, type StoreEvent } from './object-store';
import { getJson } from './raw-request';

export interface InformerOptions<T> {
  kc: KubeConfig;
  /** Collection path, e.g. `collectionPath(PodResource)` or `/api/v1/namespaces/x/pods`. */
  path: string;
  labelSelector?: string;
  fieldSelector?: string;
  indexers?: Record<string, IndexFunc<T>>;
  /** Server-side watch timeout; the informer re-watches from its resourceVersion when it ends. */
  watchTimeoutSeconds?: number;
}

export interface InformerHandlers<T> {
  add?(obj: T): void;
  update?(old: T, obj: T): void;
  delete?(obj: T): void;
}

type WatchEnd = { gone: boolean; events: number };

/**
 * List-then-watch into an ObjectStore, with what client-node's ListWatch lacks: hasSynced and
 * waitForSync, old objects on update, restart with backoff after any error, relist after 410 Gone,
 * and a stop through an AbortSignal. Handlers should only enqueue keys (see controller.ts).
 */
export class Informer<T extends KubernetesObject> {
  readonly store: ObjectStore<T>;
  private readonly handlers = new Set<InformerHandlers<T>>();
  private resourceVersion = '';
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

  /** Runs until the signal aborts; never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    const backoff = new Backoff();
    while (!signal.aborted) {
      try {
        if (!this.resourceVersion) await this.relist(signal);
        const started = Date.now();
        const end = await this.watchOnce(signal);
        if (end.gone) this.resourceVersion = '';
        if (end.events > 0 || Date.now() - started > 1000) backoff.reset();
        else await delay(backoff.next(), signal);
      } catch (err) {
        if (signal.aborted) break;
        if (isGone(err)) {
          this.resourceVersion = '';
          continue;
        }
        this.log.warn({ err: messageOf(err) }, 'list/watch failed; retrying');
        await delay(backoff.next(), signal);
      }
    }
  }

  private async relist(signal: AbortSignal): Promise<void> {
    const { labelSelector, fieldSelector } = this.opts;
    const list = await getJson<KubernetesListObject<T>>(this.opts.kc, this.opts.path, { labelSelector, fieldSelector }, signal);
    const kind = list.kind?.replace(/List$/, '');
    const items = (list.items ?? []).map((o) => ({ kind, apiVersion: list.apiVersion, ...o }));
    this.dispatch(this.store.replace(items));
    this.resourceVersion = list.metadata?.resourceVersion ?? '';
    if (!this.synced) {
      this.synced = true;
      this.syncWaiters.splice(0).forEach((w) => w());
    }
  }

  private watchOnce(signal: AbortSignal): Promise<WatchEnd> {
    const { labelSelector, fieldSelector, watchTimeoutSeconds } = this.opts;
    const query = {
      resourceVersion: this.resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: watchTimeoutSeconds ?? 300 + Math.floor(Math.random() * 300),
      labelSelector,
      fieldSelector,
    };
    const end: WatchEnd = { gone: false, events: 0 };
    return new Promise<WatchEnd>((resolve, reject) => {
      let controller: AbortController | undefined;
      const onAbort = () => controller?.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      // an ERROR event carries a Status; every other event an object of the collection
      const onEvent = (phase: string, obj: T | V1Status) => {
        end.events++;
        if (phase === 'ERROR') {
          if ((obj as V1Status | undefined)?.code === 410) end.gone = true;
          else this.log.warn({ status: obj }, 'watch error event');
          return;
        }
        if (obj?.metadata?.resourceVersion) this.resourceVersion = obj.metadata.resourceVersion;
        if (phase === 'ADDED' || phase === 'MODIFIED') this.dispatch([this.store.upsert(obj as T)]);
        else if (phase === 'DELETED') this.dispatch([this.store.remove(obj as T)]);
      };
      const onDone = (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (err && !signal.aborted) reject(err);
        else resolve(end);
      };
      new Watch(this.opts.kc).watch(this.opts.path, query, onEvent, onDone).then(
        (c) => {
          controller = c;
          if (signal.aborted) c.abort();
        },
        (err) => onDone(err),
      );
    });
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
