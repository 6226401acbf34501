import { SYSTEM_USER, type ApiContext } from '../rest/api-context';
import { deleteObject, type PropagationPolicy } from '../rest/write/delete-object';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from '../rest/write/strategies';
import { updateObject } from '../rest/write/update-object';
import { KeyQueue } from './key-queue';
import { ObjectIndex, type IndexedObject } from './object-index';
import { isGone, locateKey } from './registry-lookup';
import { startRelistingWatch } from './relisting-watch';

const WRITE = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };

/** the metadata the collector rewrites on a dependent or an owner */
interface OwnedObject { metadata: { finalizers?: string[]; ownerReferences?: { uid: string }[] } }

/**
 * Garbage collection by ownerReferences, as kube-controller-manager does it:
 * background (dependents of a vanished owner are deleted), foreground (the owner keeps
 * the foregroundDeletion finalizer until its dependents are gone) and orphan (dependents
 * lose the ownerReference, then the owner goes).
 */
export function startGarbageCollector(ctx: ApiContext): () => void {
  const log = ctx.log.child({ controller: 'garbage-collector' });
  const index = new ObjectIndex();
  const queue = new KeyQueue((key) => syncKey(key), (key, err) => log.warn({ key, err: String(err) }, 'gc sync failed'));

  async function deleteKey(key: string, policy: PropagationPolicy): Promise<void> {
    const loc = locateKey(ctx, key);
    if (!loc) return;
    try {
      await deleteObject(ctx, loc.rt, loc.namespace, loc.name, { ...WRITE, propagationPolicy: policy });
    } catch (err) { if (!isGone(err)) throw err; }
  }

  async function mutateKey(key: string, mutate: (obj: OwnedObject) => void): Promise<void> {
    const loc = locateKey(ctx, key);
    if (!loc) return;
    try {
      await updateObject(ctx, { rt: loc.rt, namespace: loc.namespace, name: loc.name, mutate: (o) => { delete o.metadata.resourceVersion; mutate(o); return o; } }, WRITE);
    } catch (err) { if (!isGone(err)) throw err; }
  }

  const dropFinalizer = (key: string, f: string) => mutateKey(key, (o) => { o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((x: string) => x !== f); });

  async function syncOwner(o: IndexedObject): Promise<void> {
    const deps = index.dependentsOf(o.uid);
    if (o.finalizers.includes(FINALIZER_ORPHAN)) {
      for (const d of deps) await mutateKey(d.key, (obj) => { obj.metadata.ownerReferences = (obj.metadata.ownerReferences ?? []).filter((r: { uid: string }) => r.uid !== o.uid); });
      await dropFinalizer(o.key, FINALIZER_ORPHAN);
    } else if (o.finalizers.includes(FINALIZER_FOREGROUND)) {
      for (const d of deps) if (!d.deleting) await deleteKey(d.key, 'Foreground');
      if (deps.length === 0) await dropFinalizer(o.key, FINALIZER_FOREGROUND);
    }
  }

  async function syncDependent(o: IndexedObject): Promise<void> {
    const missing = o.ownerUids.filter((u) => !index.byUid.has(u));
    if (missing.length === 0) return;
    if (missing.length === o.ownerUids.length) {
      log.info({ key: o.key }, 'deleting dependent of a deleted owner');
      return deleteKey(o.key, 'Background');
    }
    await mutateKey(o.key, (obj) => { obj.metadata.ownerReferences = (obj.metadata.ownerReferences ?? []).filter((r: { uid: string }) => !missing.includes(r.uid)); });
  }

  async function syncKey(key: string): Promise<void> {
    const o = index.byKey.get(key);
    if (!o) return;
    if (o.deleting) await syncOwner(o);
    if (!o.deleting && o.ownerUids.length) await syncDependent(o);
  }

  const stopWatch = startRelistingWatch(ctx.store, '/registry/', {
    onList: (items) => {
      index.reset(items);
      for (const o of index.byKey.values()) if (o.ownerUids.length || o.deleting) queue.add(o.key);
    },
    onEvent: (e) => {
      const { before, after } = index.apply(e);
      if (after && (after.deleting || after.ownerUids.length)) queue.add(after.key);
      if (e.type !== 'DELETED' || !before) return;
      for (const d of index.dependentsOf(before.uid)) queue.add(d.key);
      for (const u of before.ownerUids) { const owner = index.byUid.get(u); if (owner?.deleting) queue.add(owner.key); }
    },
    onDropped: () => log.warn('gc watch dropped, relisting'),
  });
  return () => { stopWatch(); queue.stop(); };
}
