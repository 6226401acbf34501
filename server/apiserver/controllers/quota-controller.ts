/**
 * kube-controller-manager's ResourceQuota controller: each quota's status.hard mirrors spec.hard
 * and status.used is the namespace's usage of those resources, recomputed when anything in a
 * namespace with quotas changes (a quota, or an object of a kind one of its quotas counts: a Pod
 * for pods/cpu/memory/…, a claim for requests.storage, a ConfigMap for count/configmaps…) and
 * every 30 s. Other writes (Events, Leases, …) do not wake it, nor does the echo of its own status
 * write (kube's ignores any quota update keeping spec.hard; we still recount on others' status writes).
 */
import { SYSTEM_USER, type ApiContext } from '../rest/api-context';
import { objectKey, objectPrefix, parseKey } from '../rest/codec/object-codec';
import { OwnEchoes } from '../../kube/own-writes';
import type { ApiObject } from '../rest/types/api-object';
import { updateObject } from '../rest/write/update-object';
import { committedUsage, namespaceObjects, namespaceQuotas, RESOURCE_QUOTAS, type NamespaceObjects, type StoredQuota } from '../rest/write/quota-kinds/quota-ledger';
import { formatAmount } from '../rest/write/quota-kinds/quota-usage';
import { countsKind, trackedKinds } from '../rest/write/quota-kinds/quota-tracked-kinds';
import { KeyQueue } from './key-queue';
import { isGone } from './registry-lookup';

const WRITE = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };
const RESYNC_MS = 30_000;

/** the status a quota should have now */
export function desiredQuotaStatus(ctx: ApiContext, namespace: string, stored: StoredQuota, quota: ReturnType<typeof namespaceQuotas>[number]['quota'], objects?: NamespaceObjects): { hard: Record<string, string>; used: Record<string, string> } {
  const used = committedUsage(ctx.store, namespace, quota, objects);
  const hard: Record<string, string> = {};
  for (const [k, v] of Object.entries(stored.spec?.hard ?? {})) hard[k] = String(v);
  return { hard, used: Object.fromEntries([...used].map(([k, v]) => [k, formatAmount(k, v)])) };
}

const sameStatus = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function startQuotaController(ctx: ApiContext): () => void {
  const log = ctx.log.child({ controller: 'resourcequota' });
  const queue = new KeyQueue((ns) => syncNamespace(ns), (ns, err) => log.warn({ namespace: ns, err: String(err) }, 'quota sync failed'));
  const quotaPrefix = objectPrefix(RESOURCE_QUOTAS);
  const echoes = new OwnEchoes();

  async function syncNamespace(namespace: string): Promise<void> {
    const rt = ctx.registry.find('', 'v1', 'resourcequotas')!;
    const objects = namespaceObjects(ctx.store, namespace);
    for (const { stored, quota } of namespaceQuotas(ctx.store, namespace)) {
      const status = desiredQuotaStatus(ctx, namespace, stored, quota, objects);
      if (sameStatus(stored.status, status)) continue;
      const key = objectKey(RESOURCE_QUOTAS, namespace, quota.name);
      let version: string | undefined;
      echoes.begin(key);
      try {
        const written = await updateObject(ctx, { rt, namespace, name: quota.name, subresource: 'status', mutate: (o: ApiObject) => {
          delete o.metadata.resourceVersion;
          return { ...o, status: desiredQuotaStatus(ctx, namespace, o as StoredQuota, quota) };
        } }, WRITE);
        version = written.object.metadata.resourceVersion;
      } catch (err) { if (!isGone(err)) throw err; } finally {
        // someone else wrote the quota while we did: recount for them
        if (echoes.end(key, version)) queue.add(namespace);
      }
    }
  }

  const hasQuotas = (ns: string) => ctx.store.count(objectPrefix(RESOURCE_QUOTAS, ns)) > 0;
  /** per namespace, the kinds its quotas count; dropped when one of its quotas is written */
  const tracked = new Map<string, Set<string>>();
  const trackedIn = (ns: string) => {
    let kinds = tracked.get(ns);
    if (!kinds) tracked.set(ns, (kinds = trackedKinds(namespaceQuotas(ctx.store, ns).flatMap(({ quota }) => [...quota.hard.keys()]))));
    return kinds;
  };
  const resyncAll = () => {
    const namespaces = new Set(ctx.store.list(quotaPrefix).items.map((kv) => parseKey(kv.key)!.namespace!));
    for (const ns of namespaces) queue.add(ns);
  };

  let abort = new AbortController();
  let stopped = false;
  const watchAll = () => {
    if (stopped) return;
    abort = new AbortController();
    tracked.clear();
    echoes.clear();
    const from = ctx.store.currentRevision();
    resyncAll();
    ctx.store.watch('/registry/', {
      afterRevision: from, signal: abort.signal,
      onEvent: (e) => {
        const key = parseKey(e.kv.key);
        const ns = key?.namespace;
        if (!key || !ns) return;
        if (key.group === '' && key.resource === RESOURCE_QUOTAS.resource) {
          // the echo of our own status write changes nothing we count
          if (e.type !== 'DELETED' && !echoes.isOthers(e.kv.key, String(e.kv.modRevision))) return;
          tracked.delete(ns);
        }
        if (!hasQuotas(ns)) { tracked.delete(ns); return; }
        if (countsKind(trackedIn(ns), key.group, key.resource)) queue.add(ns);
      },
      onDropped: () => setImmediate(watchAll),
    });
  };
  watchAll();
  const timer = setInterval(resyncAll, RESYNC_MS);
  return () => { stopped = true; abort.abort(); clearInterval(timer); queue.stop(); };
}
