import { SYSTEM_USER, type ApiContext } from '../rest/api-context';
import { objectKey, objectPrefix, parseKey } from '../rest/codec/object-codec';
import { createObject } from '../rest/write/create-object';
import { updateObject } from '../rest/write/update-object';
import { KeyQueue } from './key-queue';
import { isGone } from './registry-lookup';
import { startRelistingWatch } from './relisting-watch';

const WRITE = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };
const NS = { group: '', resource: 'namespaces', namespaced: false };

interface Obj { metadata?: Record<string, unknown>; data?: Record<string, string>; [k: string]: unknown }

export interface PerNamespaceObject {
  controller: string;
  resource: string;
  name: string;
  /** the object to create in `namespace` */
  desired: (namespace: string) => Obj;
  /** the object with what must be true put back, or undefined when it is right */
  repair?: (current: Obj) => Obj | undefined;
}

/**
 * Keeps one core object in every active namespace (kube-controller-manager's ServiceAccount
 * controller and root-ca-cert-publisher have this shape): created when a namespace appears or the
 * object is deleted, repaired when changed. Returns the function that stops it.
 */
export function startPerNamespaceObject(ctx: ApiContext, spec: PerNamespaceObject): () => void {
  const log = ctx.log.child({ controller: spec.controller });
  const rt = () => ctx.registry.find('', 'v1', spec.resource)!;
  const queue = new KeyQueue(sync, (ns, err) => log.warn({ namespace: ns, err: String(err) }, 'sync failed'));

  async function sync(namespace: string): Promise<void> {
    const nsKv = ctx.store.get(objectKey(NS, undefined, namespace));
    if (!nsKv || JSON.parse(nsKv.value).metadata?.deletionTimestamp) return;
    const cur = ctx.store.get(objectKey(rt(), namespace, spec.name));
    try {
      if (!cur) {
        await createObject(ctx, rt(), namespace, spec.desired(namespace), WRITE);
        return;
      }
      if (!spec.repair?.(JSON.parse(cur.value))) return;
      await updateObject(ctx, { rt: rt(), namespace, name: spec.name, mutate: (o: Obj) => spec.repair!(o) ?? o }, WRITE);
    } catch (err) {
      if (!isGone(err)) throw err; // created or changed by someone else meanwhile
    }
  }

  const stopNs = startRelistingWatch(ctx.store, objectPrefix(NS), {
    onList: (items) => items.forEach((i) => queue.add(parseKey(i.key)!.name)),
    onEvent: (e) => { if (e.type !== 'DELETED') queue.add(parseKey(e.kv.key)!.name); },
  });
  const stopObj = startRelistingWatch(ctx.store, objectPrefix(rt()), {
    onList: () => undefined,
    onEvent: (e) => {
      const k = parseKey(e.kv.key);
      if (k?.name === spec.name && k.namespace) queue.add(k.namespace);
    },
  });
  return () => { stopNs(); stopObj(); queue.stop(); };
}
