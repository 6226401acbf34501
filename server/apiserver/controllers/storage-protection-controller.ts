import { SYSTEM_USER, type ApiContext } from '../rest/api-context';
import { objectKey, objectPrefix, parseKey } from '../rest/codec/object-codec';
import type { StoreEvent } from '../store/types';
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../rest/write/storage/storage-admission';
import { updateObject } from '../rest/write/update-object';
import { KeyQueue } from './key-queue';
import { isGone } from './registry-lookup';
import { startRelistingWatch } from './relisting-watch';

const WRITE = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };
const PVCS = { group: '', resource: 'persistentvolumeclaims', namespaced: true };
const PVS = { group: '', resource: 'persistentvolumes', namespaced: false };
const PODS = { group: '', resource: 'pods', namespaced: true };

type Obj = Record<string, unknown>;
interface Volume { name?: string; persistentVolumeClaim?: { claimName?: string }; ephemeral?: unknown }
interface PodLike { metadata?: { name?: string }; spec?: { nodeName?: string; volumes?: Volume[] }; status?: { phase?: string } }
interface Protected { metadata?: { deletionTimestamp?: string; finalizers?: string[] }; status?: { phase?: string } }

/** the claims a Pod's volumes name (ephemeral volumes own the claim `<pod>-<volume>`) */
export function claimsOfPod(pod: PodLike): string[] {
  return (pod.spec?.volumes ?? []).flatMap((v) => {
    if (v.persistentVolumeClaim?.claimName) return [v.persistentVolumeClaim.claimName];
    return v.ephemeral && v.name ? [`${pod.metadata?.name ?? ''}-${v.name}`] : [];
  });
}

/** kube's pvc-protection rule: a scheduled Pod that has not finished keeps its claims */
export function podBlocksClaim(pod: PodLike, claim: string): boolean {
  if (!pod.spec?.nodeName) return false;
  if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return false;
  return claimsOfPod(pod).includes(claim);
}

const awaitingRelease = (o: Protected, finalizer: string) => Boolean(o.metadata?.deletionTimestamp) && (o.metadata?.finalizers ?? []).includes(finalizer);

/**
 * kube-controller-manager's pvc-protection and pv-protection controllers, in process: a claim
 * being deleted loses `kubernetes.io/pvc-protection` once no running Pod uses it; a volume being
 * deleted loses `kubernetes.io/pv-protection` once it is no longer Bound.
 */
export function startStorageProtectionController(ctx: ApiContext): () => void {
  const log = ctx.log.child({ controller: 'storage-protection' });
  const queue = new KeyQueue((key) => sync(key), (key, err) => log.warn({ key, err: String(err) }, 'storage protection sync failed'));

  function removeFinalizer(rt: typeof PVCS, namespace: string | undefined, name: string, finalizer: string): Promise<unknown> {
    const served = ctx.registry.find('', 'v1', rt.resource)!;
    return updateObject(ctx, { rt: served, namespace, name, mutate: (o: Obj) => {
      const meta = o.metadata as { resourceVersion?: string; finalizers?: string[] };
      delete meta.resourceVersion;
      meta.finalizers = (meta.finalizers ?? []).filter((f) => f !== finalizer);
      return o;
    } }, WRITE).catch((err: unknown) => { if (!isGone(err)) throw err; });
  }

  async function syncClaim(namespace: string, name: string): Promise<void> {
    const kv = ctx.store.get(objectKey(PVCS, namespace, name));
    if (!kv || !awaitingRelease(JSON.parse(kv.value) as Protected, PVC_PROTECTION_FINALIZER)) return;
    const pods = ctx.store.list(objectPrefix(PODS, namespace)).items.map((i) => JSON.parse(i.value) as PodLike);
    if (pods.some((p) => podBlocksClaim(p, name))) return;
    log.info({ namespace, claim: name }, 'claim no longer used by a pod, removing its protection finalizer');
    await removeFinalizer(PVCS, namespace, name, PVC_PROTECTION_FINALIZER);
  }

  async function syncVolume(name: string): Promise<void> {
    const kv = ctx.store.get(objectKey(PVS, undefined, name));
    if (!kv) return;
    const pv = JSON.parse(kv.value) as Protected;
    if (!awaitingRelease(pv, PV_PROTECTION_FINALIZER) || pv.status?.phase === 'Bound') return;
    await removeFinalizer(PVS, undefined, name, PV_PROTECTION_FINALIZER);
  }

  function sync(key: string): Promise<void> {
    const [kind, namespace, name] = key.split('/');
    return kind === 'pv' ? syncVolume(namespace) : syncClaim(namespace, name);
  }

  const claimKey = (namespace: string | undefined, name: string) => `pvc/${namespace}/${name}`;
  const onPod = (e: StoreEvent) => {
    const k = parseKey(e.kv.key);
    for (const value of [e.kv.value, e.prevValue]) {
      if (k && value) for (const c of claimsOfPod(JSON.parse(value) as PodLike)) queue.add(claimKey(k.namespace, c));
    }
  };
  const stops = [
    startRelistingWatch(ctx.store, objectPrefix(PVCS), {
      onList: (items) => { for (const i of items) { const k = parseKey(i.key); if (k) queue.add(claimKey(k.namespace, k.name)); } },
      onEvent: (e) => { const k = parseKey(e.kv.key); if (k && e.type !== 'DELETED') queue.add(claimKey(k.namespace, k.name)); },
    }),
    startRelistingWatch(ctx.store, objectPrefix(PVS), {
      onList: (items) => { for (const i of items) { const k = parseKey(i.key); if (k) queue.add(`pv/${k.name}`); } },
      onEvent: (e) => { const k = parseKey(e.kv.key); if (k && e.type !== 'DELETED') queue.add(`pv/${k.name}`); },
    }),
    startRelistingWatch(ctx.store, objectPrefix(PODS), { onList: () => undefined, onEvent: onPod }),
  ];
  return () => { stops.forEach((stop) => stop()); queue.stop(); };
}
