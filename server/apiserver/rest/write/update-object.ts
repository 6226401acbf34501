import { ConflictError, NotFoundError } from '../../store/types';
import { admit } from './admission-gate';
import { admitBuiltinUpdate, type FinishWrite } from './builtin-admission';
import type { ApiContext } from '../api-context';
import { decodeObject, encodeObject, objectKey } from '../codec/object-codec';
import { checkBodyIdentity, jsonEqual, keepSystemMeta, specChanged, tracksGeneration } from './object-meta';
import { validateObjectMeta } from './meta-validation';
import type { ApiObject } from '../types/api-object';
import type { ServedType } from '../types/resource-type';
import { validateAgainstSchema } from './schema-gate';
import { pendingFinalizers, strategyFor } from './strategies';
import { conflict, notFound } from '../status-error';
import type { WriteOptions, WriteResult } from './write-options';

const MAX_ATTEMPTS = 10;

export interface UpdateInput<T extends ApiObject = ApiObject> {
  rt: ServedType;
  namespace?: string;
  name: string;
  subresource?: string;
  /**
   * computes the desired object from a copy of the current one (PUT: the body; PATCH: patched); `T`
   * is the stored kind's shape as the caller reads it (the store holds objects of `rt`'s kind)
   */
  mutate: (current: T) => unknown;
  /** called instead of 404 when the object does not exist (apply-patch create) */
  onMissing?: () => Promise<WriteResult>;
}

/** the object after applying the subresource rules: status writes touch only status, spec writes never status */
function mergeForSubresource(rt: ServedType, next: ApiObject, current: ApiObject, subresource?: string): ApiObject {
  if (subresource === 'status') return { ...structuredClone(current), status: next.status };
  if (subresource === 'finalize') return { ...structuredClone(current), spec: { ...(current.spec as object | undefined), finalizers: (next.spec as { finalizers?: unknown } | undefined)?.finalizers ?? [] } };
  if (rt.subresources.status) {
    if (current.status === undefined) delete next.status; else next.status = current.status;
  }
  return next;
}

/** an object being deleted whose last finalizer is gone is removed */
function shouldDeleteAfterUpdate(rt: ServedType, obj: ApiObject): boolean {
  const m = obj.metadata;
  return Boolean(m.deletionTimestamp) && pendingFinalizers(rt, obj).length === 0 && !((m.deletionGracePeriodSeconds ?? 0) > 0);
}

/** the object the write asks for, after subresource rules, system metadata, schema and admission */
async function desiredObject<T extends ApiObject>(ctx: ApiContext, input: UpdateInput<T>, current: ApiObject, opts: WriteOptions, onFinish: (f: FinishWrite) => void): Promise<WriteResult> {
  const { rt, namespace, name, subresource } = input;
  const mutated: unknown = input.mutate(structuredClone(current) as T);
  checkBodyIdentity(rt, mutated, namespace, name);
  let next = mutated;
  const precondition = next.metadata.resourceVersion;
  if (precondition && precondition !== current.metadata.resourceVersion) throw conflict(rt, name);
  next = mergeForSubresource(rt, next, current, subresource);
  keepSystemMeta(next, current);
  validateObjectMeta(rt, next);
  if (!subresource) strategyFor(rt).prepareForUpdate?.(next, current);
  else if (subresource === 'status') strategyFor(rt).prepareForStatusUpdate?.(next, current);
  if (tracksGeneration(rt) && specChanged(rt, next, current)) next.metadata.generation = (current.metadata.generation ?? 0) + 1;
  onFinish(admitBuiltinUpdate(ctx, rt, next, current, subresource, opts.user));
  const validated = validateAgainstSchema(ctx, rt, next, opts.fieldValidation);
  const admitted = await admit(ctx, { operation: 'UPDATE', rt, subResource: subresource, object: validated.object, oldObject: current, namespace, name, user: opts.user, dryRun: opts.dryRun });
  next = admitted.object!;
  next.metadata.resourceVersion = current.metadata.resourceVersion;
  return { object: next, warnings: [...validated.warnings, ...admitted.warnings] };
}

/** PUT / PATCH / status writes: compare-and-swap against the stored revision, retried on a lost race */
export async function updateObject<T extends ApiObject = ApiObject>(ctx: ApiContext, input: UpdateInput<T>, opts: WriteOptions): Promise<WriteResult> {
  const { rt, name } = input;
  const key = objectKey(rt, input.namespace, name);
  for (let attempt = 1; ; attempt++) {
    const kv = ctx.store.get(key);
    if (!kv && input.onMissing) return input.onMissing();
    if (!kv) throw notFound(rt, name);
    const current = decodeObject(rt, kv);
    let finish: FinishWrite = () => undefined;
    try {
      const { object: next, warnings } = await desiredObject(ctx, input, current, opts, (f) => { finish = f; });
      if (opts.dryRun) return { object: next, warnings };
      // the last finalizer of an object being deleted is gone: it is removed in the same step, as
      // kube's store does — never stored deleting and unfinalized, which nothing would ever revisit
      // (an API server killed between an update and its delete left such an object for good)
      if (shouldDeleteAfterUpdate(rt, next)) {
        const { revision } = await ctx.store.delete(key, kv.modRevision);
        next.metadata.resourceVersion = String(revision);
        ctx.afterWrite?.(rt);
        return { object: next, warnings };
      }
      if (jsonEqual(next, current)) return { object: next, warnings };
      next.metadata.resourceVersion = String(await ctx.store.update(key, encodeObject(next, rt), kv.modRevision));
      ctx.afterWrite?.(rt);
      return { object: next, warnings };
    } catch (err) {
      // lost a race with another write: re-read and re-apply (a PUT's or patch's own resourceVersion
      // precondition, or a JSON patch `test`, is checked again against the fresh object)
      if (err instanceof ConflictError && attempt < MAX_ATTEMPTS) continue;
      if (err instanceof ConflictError) throw conflict(rt, name);
      if (err instanceof NotFoundError) throw notFound(rt, name);
      throw err;
    } finally {
      finish();
    }
  }
}
