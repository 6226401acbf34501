import { TOO_MANY_WATCHES_MESSAGE, watchLimitsOf } from './watch-limits';
import type { ResourceRequest } from '../handler-context';
import { buildMatcher } from './field-selectors';
import { negotiate, sendJson, sendJsonBytes } from '../codec/http-io';
import { rawListBytes, rawObjectEncoder } from '../codec/raw-object-bytes';
import { getObject, listObjects, listRows, type RawListResult } from './read-objects';
import type { ApiObject } from '../types/api-object';
import { groupVersion, type ServedType } from '../types/resource-type';
import { badRequest, StatusError, tooManyRequests } from '../status-error';
import { includeObjectFrom, renderObjectsTable } from './table-render';
import { serveWatch } from './watch-stream';

function representationOf(r: ResourceRequest) {
  const rep = negotiate(r.req.headers.accept);
  if (rep === 'unacceptable') {
    throw new StatusError(406, 'NotAcceptable', `only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io`);
  }
  return rep;
}

const partial = (o: ApiObject) => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata });

export function handleGet(r: ResourceRequest): void {
  const { ctx, rt, info } = r;
  const obj = getObject(ctx, rt, info.namespace, info.name!);
  const rep = representationOf(r);
  if (rep === 'table') return sendJson(r.res, 200, renderObjectsTable(rt, [obj], { include: includeObjectFrom(info.query), listMeta: { resourceVersion: obj.metadata.resourceVersion } }));
  sendJson(r.res, 200, rep === 'partial' ? partial(obj) : obj);
}

function matcherWithName(rt: ServedType, query: URLSearchParams, name?: string) {
  const m = buildMatcher(rt, query);
  if (!name) return m;
  return (o: ApiObject) => o.metadata?.name === name && (!m || m(o));
}

export function handleList(r: ResourceRequest): void {
  const { ctx, rt, info } = r;
  const limitRaw = info.query.get('limit');
  const limit = limitRaw ? Number(limitRaw) : undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw badRequest(`invalid limit: ${limitRaw}`);
  const rep = representationOf(r);
  const opts = { match: buildMatcher(rt, info.query), limit, continue: info.query.get('continue') ?? undefined };
  if (rep === 'object') return sendRawList(r, listRows(ctx, rt, info.namespace, opts));
  const list = listObjects(ctx, rt, info.namespace, opts);
  const listMeta: Record<string, unknown> = { resourceVersion: list.resourceVersion };
  if (list.continue) listMeta.continue = list.continue;
  if (rep === 'table') return sendJson(r.res, 200, renderObjectsTable(rt, list.items, { include: includeObjectFrom(info.query), listMeta }));
  if (rep === 'partial') return sendJson(r.res, 200, { kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1', metadata: listMeta, items: list.items.map(partial) });
}

/** a List response assembled from stored JSON text, without parsing every item */
function sendRawList(r: ResourceRequest, list: RawListResult): void {
  const meta: Record<string, string> = { resourceVersion: list.resourceVersion };
  if (list.continue) meta.continue = list.continue;
  const head = `{"kind":${JSON.stringify(r.rt.listKind)},"apiVersion":${JSON.stringify(groupVersion(r.rt))},"metadata":${JSON.stringify(meta)},"items":[`;
  const encode = rawObjectEncoder(r.rt);
  sendJsonBytes(r.res, 200, rawListBytes(head, list.kvs.map(encode)));
}

export function handleWatch(r: ResourceRequest): void {
  const { ctx, rt, info } = r;
  const release = watchLimitsOf(ctx).acquire(r.user);
  if (!release) {
    r.res.setHeader('Retry-After', '1');
    throw tooManyRequests(TOO_MANY_WATCHES_MESSAGE);
  }
  r.res.once('close', release);
  const q = info.query;
  const rep = representationOf(r);
  const include = includeObjectFrom(q);
  const represent = rep === 'table'
    ? (o: ApiObject) => renderObjectsTable(rt, [o], { include: q.get('includeObject') ? include : 'Object', listMeta: { resourceVersion: o.metadata.resourceVersion } })
    : rep === 'partial' ? partial : (o: ApiObject) => o;
  const timeout = q.get('timeoutSeconds');
  serveWatch(ctx, rt, info.namespace, r.req, r.res, {
    match: matcherWithName(rt, q, info.name),
    resourceVersion: q.get('resourceVersion') ?? '',
    allowBookmarks: q.get('allowWatchBookmarks') === 'true',
    sendInitialEvents: q.get('sendInitialEvents') === 'true',
    timeoutSeconds: timeout ? Number(timeout) : undefined,
    bookmarkIntervalMs: r.bookmarkIntervalMs,
    represent,
    raw: rep === 'object',
  });
}
