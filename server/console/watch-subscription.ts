/**
 * One watched collection for one browser: list (plain JSON), then watch from the list's
 * resourceVersion with @kubernetes/client-node's Watch, relisting after 410 Gone or a dropped
 * stream. Stops for good on 401/403/404 (the browser is told why).
 */
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import { getJson, RawRequestError } from '../kube/raw-request';
import type { Logger } from '../log';
import type { KubeObject } from '../../lib/kubevirt';
import type { WatchMessage } from '../../lib/console/watch-events';

export interface SubscriptionSpec { id: string; path: string; labelSelector?: string; fieldSelector?: string }

const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 10_000;
const FATAL = new Set([401, 403, 404]);
const COLLECTION_PATH = /^\/apis?\/[a-z0-9.-]+(\/[a-z0-9.-]+)*$/i;

export function isCollectionPath(path: string): boolean {
  return COLLECTION_PATH.test(path) && !path.includes('..');
}

export class WatchSubscription {
  private readonly abort = new AbortController();
  private watchAbort?: AbortController;
  private retryMs = RETRY_MIN_MS;

  constructor(
    private readonly kc: KubeConfig,
    private readonly spec: SubscriptionSpec,
    private readonly send: (m: WatchMessage) => void,
    private readonly log: Logger,
  ) {}

  start(): void {
    void this.listThenWatch();
  }

  stop(): void {
    this.abort.abort();
    this.watchAbort?.abort();
  }

  private get query() {
    return { labelSelector: this.spec.labelSelector, fieldSelector: this.spec.fieldSelector };
  }

  private async listThenWatch(): Promise<void> {
    if (this.abort.signal.aborted) return;
    try {
      const list = await getJson<{ metadata?: { resourceVersion?: string }; items?: KubeObject[] }>(this.kc, this.spec.path, this.query, this.abort.signal);
      if (this.abort.signal.aborted) return;
      const resourceVersion = list.metadata?.resourceVersion ?? '';
      this.send({ id: this.spec.id, kind: 'list', list: { resourceVersion, items: list.items ?? [] } });
      this.retryMs = RETRY_MIN_MS;
      await this.watchFrom(resourceVersion);
    } catch (err) {
      this.onFailure(err);
    }
  }

  private async watchFrom(resourceVersion: string): Promise<void> {
    let gone = false;
    const onEvent = (type: string, object: KubeObject & { code?: number; message?: string }) => {
      if (type === 'ERROR') {
        gone = true; // 410 Gone (compacted) or another watch error: relist
        this.log.debug({ path: this.spec.path, code: object.code }, 'watch error event; relisting');
        return;
      }
      this.send({ id: this.spec.id, kind: 'event', event: { type: type as 'ADDED', object } });
    };
    const onDone = (err: unknown) => {
      if (this.abort.signal.aborted) return;
      if (err && !gone) return this.onFailure(err);
      setTimeout(() => void this.listThenWatch(), gone ? 0 : RETRY_MIN_MS).unref();
    };
    this.watchAbort = await new Watch(this.kc).watch(this.spec.path, { ...this.query, resourceVersion, allowWatchBookmarks: true }, onEvent, onDone);
    if (this.abort.signal.aborted) this.watchAbort.abort();
  }

  private onFailure(err: unknown): void {
    if (this.abort.signal.aborted) return;
    const code = err instanceof RawRequestError ? err.statusCode : (err as { statusCode?: number }).statusCode ?? 0;
    if (FATAL.has(code)) {
      const message = err instanceof RawRequestError ? statusMessage(err.body) ?? err.message : (err as Error).message;
      this.send({ id: this.spec.id, kind: 'error', code, message });
      return;
    }
    this.log.debug({ path: this.spec.path, err: (err as Error).message, retryMs: this.retryMs }, 'list/watch failed; retrying');
    setTimeout(() => void this.listThenWatch(), this.retryMs).unref();
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }
}

function statusMessage(body: string): string | undefined {
  try { return JSON.parse(body).message; } catch { return undefined; }
}
