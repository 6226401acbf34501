import { AlreadyExistsError, type KeyValue } from '../../store/types';
import { admit } from './admission-gate';
import { admitBuiltinCreate } from './builtin-admission';
import type { ApiContext } from '../api-context';
import { encodeObject, objectKey } from '../codec/object-codec';
import { checkBodyIdentity, initObjectMeta } from './object-meta';
import { validateObjectMeta } from './meta-validation';
import type { ApiObject } from '../types/api-object';
import { qualifiedResource, type ServedType } from '../types/resource-type';
import { validateAgainstSchema } from './schema-gate';
import { strategyFor } from './strategies';
import { alreadyExists, forbidden, notFound } from '../status-error';
import type { WriteOptions, WriteResult } from './write-options';

const NAMESPACE_RT = { group: '', resource: 'namespaces', namespaced: false };

/** whether a stored Namespace is terminating, read once per stored value (every create in it asks) */
const terminating = new WeakMap<KeyValue, boolean>();
function isTerminating(kv: KeyValue): boolean {
  let t = terminating.get(kv);
  if (t === undefined) terminating.set(kv, (t = Boolean(JSON.parse(kv.value).metadata?.deletionTimestamp)));
  return t;
}

/**
 * The namespace must exist and not be terminating (kube's NamespaceLifecycle admission): a create in a
 * terminating one is kube's 403 naming the object as asked — its name, else its generateName, else
 * "Unknown" (admission runs before a name is generated) — with a NamespaceTerminating cause.
 */
export function checkNamespaceWritable(ctx: ApiContext, namespace: string, rt: { group: string; resource: string }, body: ApiObject): void {
  const kv = ctx.store.get(objectKey(NAMESPACE_RT, undefined, namespace));
  if (!kv) throw notFound(NAMESPACE_RT, namespace);
  if (isTerminating(kv)) {
    const meta = body.metadata as { name?: unknown; generateName?: unknown } | undefined;
    const name = [meta?.name, meta?.generateName].find((n): n is string => typeof n === 'string' && n !== '') ?? 'Unknown';
    throw forbidden(`${qualifiedResource(rt)} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
      name, group: rt.group || undefined, kind: rt.resource,
      causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
    });
  }
}

/** POST: defaults, admission, schema, then an atomic create in the store */
export async function createObject(ctx: ApiContext, rt: ServedType, namespace: string | undefined, body: unknown, opts: WriteOptions): Promise<WriteResult> {
  checkBodyIdentity(rt, body, namespace);
  // admission (NamespaceLifecycle) comes before name generation and validation, as in kube
  if (rt.namespaced) checkNamespaceWritable(ctx, namespace!, rt, body);
  initObjectMeta(rt, body);
  validateObjectMeta(rt, body);
  const strategy = strategyFor(rt);
  if (strategy.prepareForCreate) strategy.prepareForCreate(body);
  else if (rt.subresources.status && !rt.builtin) delete body.status;
  const finish = await admitBuiltinCreate(ctx, rt, body, opts.user, opts.dryRun === true);
  try {
    return await storeCreated(ctx, rt, namespace, body, opts);
  } finally {
    finish();
  }
}

/** schema, webhooks, then the store */
async function storeCreated(ctx: ApiContext, rt: ServedType, namespace: string | undefined, body: ApiObject, opts: WriteOptions): Promise<WriteResult> {
  const validated = validateAgainstSchema(ctx, rt, body, opts.fieldValidation, opts.ownsBody);
  const admitted = await admit(ctx, { operation: 'CREATE', rt, object: validated.object, namespace, name: body.metadata.name, user: opts.user, dryRun: opts.dryRun });
  const object = admitted.object === validated.object ? validated.object : validateAgainstSchema(ctx, rt, admitted.object!, 'Ignore').object;
  const warnings = [...validated.warnings, ...admitted.warnings];
  const key = objectKey(rt, namespace, object.metadata.name!);
  if (opts.dryRun) {
    if (ctx.store.get(key)) throw alreadyExists(rt, object.metadata.name!);
    return { object, warnings, created: true };
  }
  try {
    const stored = encodeObject(object, rt);
    const rev = await ctx.store.create(key, stored);
    object.metadata.resourceVersion = String(rev);
    ctx.afterWrite?.(rt);
    return { object, warnings, created: true, stored };
  } catch (err) {
    if (err instanceof AlreadyExistsError) throw alreadyExists(rt, object.metadata.name!);
    throw err;
  }
}
