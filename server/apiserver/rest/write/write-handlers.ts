import { createObject } from './create-object';
import { deleteObject, deleteOptionsFrom } from './delete-object';
import { buildMatcher } from '../read/field-selectors';
import type { ResourceRequest } from '../handler-context';
import { warningHeaders } from '../handler-context';
import { parseBody, readBody, sendJson, sendRawJson } from '../codec/http-io';
import { stampedText } from '../codec/object-codec';
import { APPLY, parsePatch } from './patch-body';
import { listObjects } from '../read/read-objects';
import type { ApiObject } from '../types/api-object';
import { groupVersion } from '../types/resource-type';
import { badRequest, invalid, statusObject } from '../status-error';
import { updateObject } from './update-object';
import { writeOptionsFrom } from './write-options';

export async function handleCreate(r: ResourceRequest): Promise<void> {
  const { ctx, rt, info, user } = r;
  const body = parseBody(await readBody(r.req), r.req.headers['content-type']);
  const result = await createObject(ctx, rt, info.namespace, body, { ...writeOptionsFrom(info.query, user), ownsBody: true });
  // the answer is the stored text with its resourceVersion: no second JSON.stringify of the object
  const stamped = result.stored === undefined ? undefined : stampedText(rt, result.stored, result.object.metadata.resourceVersion!);
  sendRawJson(r.res, 201, stamped ?? JSON.stringify(result.object), warningHeaders(result.warnings));
}

/**
 * kube's custom resource strategy does not allow an unconditional update: a PUT must name the
 * resourceVersion it replaces (built-in kinds mostly allow it, and so do we for them)
 */
function requireResourceVersionForCustomResource(rt: ResourceRequest['rt'], name: string, body: unknown): void {
  if (rt.builtin) return;
  const meta = (body as { metadata?: { resourceVersion?: unknown } } | null)?.metadata;
  if (meta && typeof meta === 'object' && !meta.resourceVersion) {
    throw invalid(rt, name, [{ reason: 'FieldValueInvalid', field: 'metadata.resourceVersion', message: 'Invalid value: 0x0: must be specified for an update' }]);
  }
}

export async function handleUpdate(r: ResourceRequest): Promise<void> {
  const { ctx, rt, info, user } = r;
  const body = parseBody(await readBody(r.req), r.req.headers['content-type']);
  if (!info.subresource) requireResourceVersionForCustomResource(rt, info.name!, body);
  const result = await updateObject(ctx, { rt, namespace: info.namespace, name: info.name!, subresource: info.subresource, mutate: () => body }, writeOptionsFrom(info.query, user));
  sendJson(r.res, 200, result.object, warningHeaders(result.warnings));
}

export async function handlePatch(r: ResourceRequest): Promise<void> {
  const { ctx, rt, info, user } = r;
  const patch = parsePatch(rt, r.req.headers['content-type'], await readBody(r.req), info.query.get('fieldManager') ?? '');
  const opts = writeOptionsFrom(info.query, user);
  const isApply = patch.type === APPLY;
  if (isApply && !info.query.get('fieldManager')) {
    throw invalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [{ reason: 'FieldValueRequired', field: 'fieldManager', message: 'Required value: is required for apply patch' }]);
  }
  let created = false;
  const onMissing = isApply && !info.subresource
    ? async () => { created = true; const body = patch.body as { apiVersion?: string; kind?: string } | null; return createObject(ctx, rt, info.namespace, patch.apply({ apiVersion: body?.apiVersion, kind: body?.kind, metadata: { name: info.name } }), opts); }
    : undefined;
  const result = await updateObject(ctx, { rt, namespace: info.namespace, name: info.name!, subresource: info.subresource, mutate: patch.apply, onMissing }, opts);
  sendJson(r.res, created ? 201 : 200, result.object, warningHeaders(result.warnings));
}

async function readOptionalBody(r: ResourceRequest): Promise<unknown> {
  const raw = await readBody(r.req);
  if (!raw.length) return undefined;
  try { return JSON.parse(raw.toString('utf8')); } catch { throw badRequest('error decoding DeleteOptions'); }
}

function deletedResponse(r: ResourceRequest, obj: ApiObject): unknown {
  if (r.rt.returnDeletedObject || !r.rt.builtin) return obj;
  return { ...statusObject(200, '', ''), status: 'Success', details: { name: obj.metadata.name, group: r.rt.group, kind: r.rt.resource, uid: obj.metadata.uid } };
}

export async function handleDelete(r: ResourceRequest): Promise<void> {
  const { ctx, rt, info, user } = r;
  const opts = deleteOptionsFrom(await readOptionalBody(r), info.query, user);
  const result = await deleteObject(ctx, rt, info.namespace, info.name!, opts);
  sendJson(r.res, 200, result.deleted ? deletedResponse(r, result.object) : result.object);
}

export async function handleDeleteCollection(r: ResourceRequest): Promise<void> {
  const { ctx, rt, info, user } = r;
  const opts = deleteOptionsFrom(await readOptionalBody(r), info.query, user);
  const list = listObjects(ctx, rt, info.namespace, { match: buildMatcher(rt, info.query) });
  const items: ApiObject[] = [];
  for (const obj of list.items) {
    try {
      items.push((await deleteObject(ctx, rt, obj.metadata.namespace, obj.metadata.name!, opts)).object);
    } catch (err) {
      if ((err as { code?: number }).code !== 404) throw err;
    }
  }
  sendJson(r.res, 200, { kind: rt.listKind, apiVersion: groupVersion(rt), metadata: { resourceVersion: String(ctx.store.currentRevision()) }, items });
}
