import { SYSTEM_USER, type ApiContext } from '../rest/api-context';
import { deleteObject } from '../rest/write/delete-object';
import { objectPrefix, parseKey } from '../rest/codec/object-codec';
import { NAMESPACE_FINALIZER } from '../rest/write/strategies';
import { updateObject } from '../rest/write/update-object';
import { KeyQueue } from './key-queue';
import { isGone } from './registry-lookup';
import { startRelistingWatch } from './relisting-watch';
import type { ApiObject } from '../rest/types/api-object';

const WRITE = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };
const RECHECK_MS = 1000;
const NS = { group: '', resource: 'namespaces', namespaced: false };

/**
 * Namespace deletion: a namespace being deleted (phase Terminating) has all its content
 * deleted; once nothing is left its "kubernetes" finalizer is removed and it goes away.
 */
export function startNamespaceController(ctx: ApiContext): () => void {
  const log = ctx.log.child({ controller: 'namespace' });
  const queue = new KeyQueue((name) => syncNamespace(name), (name, err) => log.warn({ namespace: name, err: String(err) }, 'namespace sync failed'));

  /** deletes what is left in the namespace; returns how many objects remain */
  async function deleteContent(ns: string): Promise<number> {
    const seen = new Set<string>();
    let remaining = 0;
    for (const rt of ctx.registry.all()) {
      const id = `${rt.group}/${rt.resource}`;
      if (!rt.namespaced || seen.has(id) || !rt.verbs.includes('delete')) continue;
      seen.add(id);
      for (const kv of ctx.store.list(objectPrefix(rt, ns)).items) {
        remaining++;
        try {
          await deleteObject(ctx, rt, ns, parseKey(kv.key)!.name, { ...WRITE, propagationPolicy: 'Background' });
        } catch (err) { if (!isGone(err)) throw err; }
      }
    }
    return remaining;
  }

  async function syncNamespace(name: string): Promise<void> {
    const kv = ctx.store.get(`${objectPrefix(NS)}${name}`);
    if (!kv) return;
    const ns = JSON.parse(kv.value);
    if (!ns.metadata.deletionTimestamp) return;
    await deleteContent(name);
    const left = ctx.registry.all().some((rt) => rt.namespaced && ctx.store.count(objectPrefix(rt, name)) > 0);
    if (left) return queue.addAfter(name, RECHECK_MS);
    if (!(ns.spec?.finalizers ?? []).includes(NAMESPACE_FINALIZER)) return;
    const rt = ctx.registry.find('', 'v1', 'namespaces')!;
    log.info({ namespace: name }, 'namespace content deleted, finalizing');
    await updateObject(ctx, { rt, name, subresource: 'finalize', mutate: (o: ApiObject & { spec?: { finalizers?: string[] } }) => {
      delete o.metadata.resourceVersion;
      o.spec = { ...o.spec, finalizers: (o.spec?.finalizers ?? []).filter((f: string) => f !== NAMESPACE_FINALIZER) };
      return o;
    } }, WRITE);
  }

  const stopWatch = startRelistingWatch(ctx.store, objectPrefix(NS), {
    onList: (items) => { for (const item of items) if (JSON.parse(item.value).metadata?.deletionTimestamp) queue.add(parseKey(item.key)!.name); },
    onEvent: (e) => { if (e.type !== 'DELETED') queue.add(parseKey(e.kv.key)!.name); },
  });
  return () => { stopWatch(); queue.stop(); };
}
