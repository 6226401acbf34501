import { SYSTEM_USER, type ApiContext } from '../rest/api-context';
import { deleteObject } from '../rest/write/delete-object';
import { objectPrefix, parseKey } from '../rest/codec/object-codec';
import { CRD_CLEANUP_FINALIZER } from '../rest/write/strategies';
import { updateObject } from '../rest/write/update-object';
import { KeyQueue } from './key-queue';
import { isGone } from './registry-lookup';
import { startRelistingWatch } from './relisting-watch';

const WRITE = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };
const RECHECK_MS = 1000;
const CRDS = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', namespaced: false };

/**
 * A CustomResourceDefinition being deleted first loses all its custom resources (their
 * finalizers honoured), then its cleanup finalizer, as kube's apiextensions controller does.
 */
export function startCRDCleanupController(ctx: ApiContext): () => void {
  const log = ctx.log.child({ controller: 'crd-cleanup' });
  const queue = new KeyQueue((name) => syncCRD(name), (name, err) => log.warn({ crd: name, err: String(err) }, 'crd cleanup failed'));

  async function syncCRD(name: string): Promise<void> {
    const kv = ctx.store.get(`${objectPrefix(CRDS)}${name}`);
    if (!kv) return;
    const crd = JSON.parse(kv.value);
    if (!crd.metadata.deletionTimestamp || !(crd.metadata.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER)) return;
    const rt = ctx.registry.findAnyVersion(crd.spec.group, crd.spec.names.plural);
    const prefix = `/registry/${crd.spec.group}/${crd.spec.names.plural}/`;
    for (const item of ctx.store.list(prefix).items) {
      const k = parseKey(item.key)!;
      if (!rt) break;
      try { await deleteObject(ctx, rt, k.namespace, k.name, { ...WRITE, propagationPolicy: 'Background' }); } catch (err) { if (!isGone(err)) throw err; }
    }
    if (rt && ctx.store.count(prefix) > 0) return queue.addAfter(name, RECHECK_MS);
    log.info({ crd: name }, 'custom resources deleted, removing the cleanup finalizer');
    await updateObject(ctx, { rt: ctx.registry.find(CRDS.group, 'v1', CRDS.resource)!, name, mutate: (o) => {
      delete o.metadata.resourceVersion;
      o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f: string) => f !== CRD_CLEANUP_FINALIZER);
      return o;
    } }, WRITE);
  }

  const stopWatch = startRelistingWatch(ctx.store, objectPrefix(CRDS), {
    onList: (items) => { for (const item of items) if (JSON.parse(item.value).metadata?.deletionTimestamp) queue.add(parseKey(item.key)!.name); },
    onEvent: (e) => { if (e.type !== 'DELETED') queue.add(parseKey(e.kv.key)!.name); },
  });
  return () => { stopWatch(); queue.stop(); };
}
