import { Watch, type KubeConfig, type KubernetesListObject, type KubernetesObject, type V1Status } from '@kubernetes/client-node';
import { log } from '../log';
import { isGone, messageOf } from './api-errors';
import { Backoff, delay } from './backoff';
import { guardCached } from './cache-mutation-detector';
import { getJson } from './raw-request';
import { keyOf } from './resources';

export interface FeedOptions {
  kc: KubeConfig;
  /** Collection path, e.g. `collectionPath(PodResource)` or `/api/v1/namespaces/x/pods`. */
  path: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Server-side watch timeout; the feed re-watches from its resourceVersion when it ends. */
  watchTimeoutSeconds?: number;
}

/** What a feed delivers to each informer that joined it. */
export interface FeedSubscriber<T> {
  /** the whole collection: the first list, a relist, or the current objects for a late joiner */
  replace(items: T[]): void;
  apply(phase: 'ADDED' | 'MODIFIED' | 'DELETED', obj: T): void;
}

type WatchEnd = { gone: boolean; events: number };

/**
 * One list-then-watch of a collection, shared by every informer of a process that asks for the same
 * collection and selectors with the same server and credentials (client-go's shared informer factory does the same inside one
 * KubeVirt component): each watch event is sent, read and parsed once instead of once per informer —
 * virt-controller alone had six informers on VirtualMachineInstances. Objects are shared between
 * the informers' caches by reference, so, as with client-go, a cached object must not be mutated.
 * It runs while at least one informer is joined; restarts with backoff after any error and relists
 * after 410 Gone.
 */
export class ListWatchFeed<T extends KubernetesObject> {
  private readonly subscribers = new Set<FeedSubscriber<T>>();
  /** the objects as last listed/watched, for an informer that joins after the list */
  private readonly items = new Map<string, T>();
  private listed = false;
  private resourceVersion = '';
  private running: { stop: AbortController; done: Promise<void> } | undefined;
  private readonly log;

  constructor(private readonly opts: FeedOptions) {
    this.log = log.child({ component: 'informer', path: opts.path });
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Delivers the collection to `sub` until `signal` aborts; resolves then (and once the feed's watch has ended, if it was the last). */
  async join(sub: FeedSubscriber<T>, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    this.subscribers.add(sub);
    if (this.listed) sub.replace([...this.items.values()]);
    if (!this.running) {
      const stop = new AbortController();
      this.running = { stop, done: this.loop(stop.signal) };
    }
    const running = this.running;
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    this.subscribers.delete(sub);
    if (this.subscribers.size > 0 || this.running !== running) return;
    this.running = undefined;
    this.listed = false;
    this.resourceVersion = '';
    this.items.clear();
    running.stop.abort();
    await running.done;
  }

  private async loop(signal: AbortSignal): Promise<void> {
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
    if (signal.aborted) return;
    const kind = list.kind?.replace(/List$/, '');
    const items = (list.items ?? []).map((o) => guardCached({ kind, apiVersion: list.apiVersion, ...o }));
    this.items.clear();
    for (const o of items) this.items.set(keyOf(o), o);
    this.listed = true;
    this.resourceVersion = list.metadata?.resourceVersion ?? '';
    for (const sub of [...this.subscribers]) sub.replace(items);
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
        if (signal.aborted) return;
        end.events++;
        if (phase === 'ERROR') {
          if ((obj as V1Status | undefined)?.code === 410) end.gone = true;
          else this.log.warn({ status: obj }, 'watch error event');
          return;
        }
        const o = guardCached(obj as T);
        if (o?.metadata?.resourceVersion) this.resourceVersion = o.metadata.resourceVersion;
        if (phase === 'ADDED' || phase === 'MODIFIED') this.items.set(keyOf(o), o);
        else if (phase === 'DELETED') this.items.delete(keyOf(o));
        else return; // BOOKMARK
        for (const sub of [...this.subscribers]) sub.apply(phase, o);
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
}

const byInstance = new WeakMap<KubeConfig, Map<string, ListWatchFeed<KubernetesObject>>>();
const byIdentity = new Map<string, Map<string, ListWatchFeed<KubernetesObject>>>();

/**
 * The server and credentials a KubeConfig reads with: components of one process that load the same
 * kubeconfig file (embedded mode's scheduler, kube-controllers, storage, network and kubelets) get
 * one feed. Undefined for exec and auth-provider users (in-cluster token files included): those
 * share only within their KubeConfig object.
 */
function identityOf(kc: KubeConfig): string | undefined {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  if (!cluster || !user || user.exec || user.authProvider) return undefined;
  return JSON.stringify([cluster.server, cluster.caData, cluster.caFile, cluster.skipTLSVerify, cluster.tlsServerName, cluster.proxyUrl,
    user.token, user.certData, user.certFile, user.keyData, user.keyFile, user.username, user.password]);
}

/** The process's feed for this server, credentials, collection and selectors (made on first use). */
export function feedFor<T extends KubernetesObject>(opts: FeedOptions): ListWatchFeed<T> {
  const identity = identityOf(opts.kc);
  let byKey = identity === undefined ? byInstance.get(opts.kc) : byIdentity.get(identity);
  if (!byKey) {
    byKey = new Map();
    if (identity === undefined) byInstance.set(opts.kc, byKey);
    else byIdentity.set(identity, byKey);
  }
  const key = JSON.stringify([opts.path, opts.labelSelector ?? '', opts.fieldSelector ?? '', opts.watchTimeoutSeconds ?? 0]);
  let feed = byKey.get(key);
  if (!feed) byKey.set(key, (feed = new ListWatchFeed<KubernetesObject>(opts)));
  return feed as unknown as ListWatchFeed<T>;
}
