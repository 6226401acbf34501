import { SYSTEM_USER, type ApiContext } from '../rest/api-context';
import { deleteObject } from '../rest/write/delete-object';
import { objectPrefix, parseKey } from '../rest/codec/object-codec';
import { isGone } from './registry-lookup';

export const DEFAULT_EVENT_TTL_MS = 60 * 60_000;
const SWEEP_INTERVAL_MS = 60_000;
const WRITE = { user: SYSTEM_USER, dryRun: false };

/** the timestamps of a stored core/v1 or events.k8s.io/v1 Event */
interface StoredEvent {
  series?: { lastObservedTime?: string };
  lastTimestamp?: string | null;
  eventTime?: string | null;
  metadata?: { creationTimestamp?: string };
}

/** when an event last happened: series, last timestamp, event time, else creation */
export function lastSeen(ev: StoredEvent): number {
  const t = ev.series?.lastObservedTime ?? ev.lastTimestamp ?? ev.eventTime ?? ev.metadata?.creationTimestamp;
  const ms = t ? Date.parse(t) : NaN;
  return Number.isNaN(ms) ? 0 : ms;
}

/** Events expire after a TTL (kube-apiserver's --event-ttl, 1 h by default). */
export function startEventTTLController(ctx: ApiContext, ttlMs = DEFAULT_EVENT_TTL_MS): () => void {
  const log = ctx.log.child({ controller: 'event-ttl' });
  let busy = false;
  async function sweep(): Promise<void> {
    const rt = ctx.registry.find('', 'v1', 'events')!;
    const cutoff = Date.now() - ttlMs;
    let expired = 0;
    for (const kv of ctx.store.list(objectPrefix(rt)).items) {
      if (lastSeen(JSON.parse(kv.value)) > cutoff) continue;
      const k = parseKey(kv.key)!;
      try { await deleteObject(ctx, rt, k.namespace, k.name, WRITE); expired++; } catch (err) { if (!isGone(err)) throw err; }
    }
    if (expired) log.info({ expired }, 'expired events deleted');
  }
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    sweep().catch((err) => log.warn({ err: String(err) }, 'event sweep failed')).finally(() => { busy = false; });
  }, Math.min(SWEEP_INTERVAL_MS, ttlMs));
  return () => clearInterval(timer);
}
