import { ConflictError, NotFoundError } from '../../store/types';
import { admit } from './admission-gate';
import type { ApiContext, User } from '../api-context';
import { decodeObject, encodeObject, nowTimestamp, objectKey } from '../codec/object-codec';
import { jsonEqual } from './object-meta';
import type { ApiObject } from '../types/api-object';
import type { ServedType } from '../types/resource-type';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN, pendingFinalizers } from './strategies';
import { badRequest, conflict, notFound } from '../status-error';

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface DeleteOptions {
  user: User;
  dryRun: boolean;
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface DeleteResult { object: ApiObject; deleted: boolean }

/** the DeleteOptions fields read from a request body (JSON as the client sent it) */
interface DeleteOptionsBody {
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  orphanDependents?: unknown;
  dryRun?: string[];
  preconditions?: DeleteOptions['preconditions'];
}

/** the fields of a pod its grace period depends on */
interface PodForGrace { spec?: { nodeName?: string; terminationGracePeriodSeconds?: number }; status?: { phase?: string } }

const POLICIES = new Set(['Background', 'Foreground', 'Orphan']);
const DEFAULT_POD_GRACE_SECONDS = 30;

/** DeleteOptions from the body (kubectl) and the query (client-node) */
export function deleteOptionsFrom(body: unknown, query: URLSearchParams, user: User): DeleteOptions {
  const b: DeleteOptionsBody = body && typeof body === 'object' ? (body as DeleteOptionsBody) : {};
  const grace = b.gracePeriodSeconds ?? (query.has('gracePeriodSeconds') ? Number(query.get('gracePeriodSeconds')) : undefined);
  let policy = b.propagationPolicy ?? query.get('propagationPolicy') ?? undefined;
  if (policy === undefined && (b.orphanDependents === true || query.get('orphanDependents') === 'true')) policy = 'Orphan';
  if (policy !== undefined && !POLICIES.has(policy)) throw badRequest(`propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan"`);
  const dryRun = [...(b.dryRun ?? []), ...query.getAll('dryRun')].includes('All');
  return { user, dryRun, gracePeriodSeconds: grace, propagationPolicy: policy as PropagationPolicy | undefined, preconditions: b.preconditions };
}

function checkPreconditions(rt: ServedType, obj: ApiObject, pre: DeleteOptions['preconditions']): void {
  if (pre?.uid && pre.uid !== obj.metadata.uid) {
    throw conflict(rt, obj.metadata.name!, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid}`);
  }
  if (pre?.resourceVersion && pre.resourceVersion !== obj.metadata.resourceVersion) {
    throw conflict(rt, obj.metadata.name!, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion}`);
  }
}

/** seconds a pod gets to terminate: 0 when no kubelet has it */
function podGraceSeconds(rt: ServedType, object: ApiObject, requested?: number): number {
  if (rt.group || rt.resource !== 'pods') return 0;
  const obj = object as PodForGrace;
  if (!obj.spec?.nodeName || obj.status?.phase === 'Succeeded' || obj.status?.phase === 'Failed') return 0;
  return Math.max(0, requested ?? obj.spec?.terminationGracePeriodSeconds ?? DEFAULT_POD_GRACE_SECONDS);
}

/** marks the object as being deleted: finalizers for the policy, deletionTimestamp, grace */
function markDeleting(rt: ServedType, current: ApiObject, opts: DeleteOptions): ApiObject {
  const next = structuredClone(current);
  const m = next.metadata;
  let fins: string[] = m.finalizers ?? [];
  if (opts.propagationPolicy === 'Foreground') fins = [...fins.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND), FINALIZER_FOREGROUND];
  if (opts.propagationPolicy === 'Orphan') fins = [...fins.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND), FINALIZER_ORPHAN];
  if (fins.length) m.finalizers = fins;
  const grace = podGraceSeconds(rt, current, opts.gracePeriodSeconds);
  const prevGrace = m.deletionGracePeriodSeconds;
  if (!m.deletionTimestamp || (prevGrace !== undefined && grace < prevGrace)) {
    m.deletionTimestamp = nowTimestamp(new Date(Date.now() + grace * 1000));
    m.deletionGracePeriodSeconds = grace;
  }
  if (!rt.group && rt.resource === 'namespaces') next.status = { ...(next.status as object | undefined), phase: 'Terminating' };
  return next;
}

/** DELETE: graceful (pods), deferred by finalizers, or immediate */
export async function deleteObject(ctx: ApiContext, rt: ServedType, namespace: string | undefined, name: string, opts: DeleteOptions): Promise<DeleteResult> {
  const key = objectKey(rt, namespace, name);
  let admitted = false;
  for (;;) {
    const kv = ctx.store.get(key);
    if (!kv) throw notFound(rt, name);
    const current = decodeObject(rt, kv);
    checkPreconditions(rt, current, opts.preconditions);
    if (!admitted) {
      await admit(ctx, { operation: 'DELETE', rt, oldObject: current, namespace, name, user: opts.user, dryRun: opts.dryRun });
      admitted = true;
    }
    const next = markDeleting(rt, current, opts);
    const waits = pendingFinalizers(rt, next).length > 0 || (next.metadata.deletionGracePeriodSeconds ?? 0) > 0;
    if (opts.dryRun) return { object: waits ? next : current, deleted: !waits };
    try {
      if (waits) {
        if (jsonEqual(next, current)) return { object: current, deleted: false };
        const rev = await ctx.store.update(key, encodeObject(next, rt), kv.modRevision);
        next.metadata.resourceVersion = String(rev);
        ctx.afterWrite?.(rt);
        return { object: next, deleted: false };
      }
      const { revision } = await ctx.store.delete(key, kv.modRevision);
      current.metadata.resourceVersion = String(revision);
      ctx.afterWrite?.(rt);
      return { object: current, deleted: true };
    } catch (err) {
      if (err instanceof ConflictError) continue;
      if (err instanceof NotFoundError) throw notFound(rt, name);
      throw err;
    }
  }
}
