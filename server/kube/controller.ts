import type { KubernetesObject } from '@kubernetes/client-node';
import { log } from '../log';
import { messageOf } from './api-errors';
import type { InformerHandlers } from './informer';
import { keyOf } from './resources';
import { runWorkers, WorkQueue, type WorkQueueMetricsProvider } from './workqueue';

/**
 * What `sync` returns (or throws) when it could not bring the world in line: a reason for the
 * Synchronized condition / event, a message, and whether to retry with backoff.
 */
export class SyncError extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly requeue = true,
  ) {
    super(message);
    this.name = 'SyncError';
  }
}

export interface ControllerOptions {
  name: string;
  /** Level-triggered and idempotent: reads the caches for `key` and acts. Throw to retry with backoff. */
  execute(key: string): Promise<void>;
  /** Caches that must be filled before the first `execute`. */
  informers: { waitForSync(signal?: AbortSignal): Promise<boolean> }[];
  workers?: number;
  /** the work queue's metrics, under `queueName` (KubeVirt's queue name; default `name`) */
  metrics?: WorkQueueMetricsProvider;
  queueName?: string;
}

/**
 * The loop every controller shares (STYLE.md): informer callbacks only enqueue keys; N workers run
 * `execute(key)`, one key at a time; a failure requeues the key with per-key backoff (5 ms → 1000 s),
 * a success or a SyncError with requeue=false forgets its backoff.
 */
export class Controller {
  readonly queue: WorkQueue;
  private readonly log;

  constructor(private readonly opts: ControllerOptions) {
    this.queue = new WorkQueue({ name: opts.queueName ?? opts.name, metrics: opts.metrics });
    this.log = log.child({ component: opts.name });
  }

  enqueue(objOrKey: KubernetesObject | string): void {
    this.queue.add(typeof objOrKey === 'string' ? objOrKey : keyOf(objOrKey));
  }

  /** Enqueue ahead of the backlog: the object carries a user's action (see WorkQueue.addUrgent). */
  enqueueUrgent(objOrKey: KubernetesObject | string): void {
    this.queue.addUrgent(typeof objOrKey === 'string' ? objOrKey : keyOf(objOrKey));
  }

  enqueueAfter(key: string, ms: number): void {
    this.queue.addAfter(key, ms);
  }

  /** Handlers for the controller's own kind: every change enqueues the object's key. */
  enqueueHandlers(): InformerHandlers<KubernetesObject> {
    return { add: (o) => this.enqueue(o), update: (_, o) => this.enqueue(o), delete: (o) => this.enqueue(o) };
  }

  /** Waits for the caches, then works until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    const synced = await Promise.all(this.opts.informers.map((i) => i.waitForSync(signal)));
    if (!synced.every(Boolean)) return;
    signal.addEventListener('abort', () => this.queue.shutdown(), { once: true });
    if (signal.aborted) return;
    this.log.info({ workers: this.opts.workers ?? 1 }, 'controller started');
    await runWorkers(this.queue, this.opts.workers ?? 1, (key) => this.process(key));
  }

  private async process(key: string): Promise<void> {
    try {
      await this.opts.execute(key);
      this.queue.forget(key);
    } catch (err) {
      const requeue = !(err instanceof SyncError) || err.requeue;
      const fields = { key, reason: err instanceof SyncError ? err.reason : undefined, err: messageOf(err), retries: this.queue.numRequeues(key) };
      this.log.warn(fields, requeue ? 'sync failed; requeued' : 'sync failed');
      if (requeue) this.queue.addRateLimited(key);
      else this.queue.forget(key);
    }
  }
}

/** The key of the object's controlling owner of `kind` (a Pod → its VMI's `namespace/name`), if any. */
export function controllerOwnerKey(obj: KubernetesObject, kind: string): string | undefined {
  const ref = obj.metadata?.ownerReferences?.find((r) => r.controller && r.kind === kind);
  if (!ref) return undefined;
  return obj.metadata?.namespace ? `${obj.metadata.namespace}/${ref.name}` : ref.name;
}
