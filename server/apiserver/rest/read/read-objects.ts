import type { KeyValue } from '../../store/types';
import type { ApiContext } from '../api-context';
import { decodeObject, objectKey, objectPrefix } from '../codec/object-codec';
import type { ApiObject } from '../types/api-object';
import type { ServedType } from '../types/resource-type';
import { badRequest, expired, notFound } from '../status-error';
import type { ObjectMatcher } from './field-selectors';

const SCAN_PAGE = 500;

export function getObject(ctx: ApiContext, rt: ServedType, namespace: string | undefined, name: string): ApiObject {
  const kv = ctx.store.get(objectKey(rt, namespace, name));
  if (!kv) throw notFound(rt, name);
  return decodeObject(rt, kv);
}

export interface ListResult { items: ApiObject[]; resourceVersion: string; continue?: string }

/** a page of store rows (not decoded unless a matcher needs it) */
export interface RawListResult { kvs: KeyValue[]; resourceVersion: string; continue?: string }

interface ContinueToken { v: string; rv: number; start: string }

function decodeContinue(token: string): ContinueToken {
  try {
    const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof t.rv === 'number' && typeof t.start === 'string') return t;
  } catch { /* fall through */ }
  throw badRequest('continue key is not valid: invalid continue token');
}

const encodeContinue = (rv: number, start: string) => Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');

export interface ListOptions { match?: ObjectMatcher; limit?: number; continue?: string }

/** LIST rows: a page of matching rows in key order; `continue` resumes after the last key */
export function listRows(ctx: ApiContext, rt: ServedType, namespace: string | undefined, opts: ListOptions): RawListResult {
  const prefix = objectPrefix(rt, namespace);
  let startAfter: string | undefined;
  let listRev: number | undefined;
  if (opts.continue) {
    const t = decodeContinue(opts.continue);
    if (t.rv < ctx.store.compactRevision()) {
      throw expired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.');
    }
    startAfter = t.start;
    listRev = t.rv;
  }
  const limit = opts.limit && opts.limit > 0 ? opts.limit : undefined;
  const pageLimit = opts.match ? Math.max(SCAN_PAGE, limit ?? 0) : limit;
  const kvs: KeyValue[] = [];
  let lastKey: string | undefined;
  let more = false;
  scan: for (;;) {
    const page = ctx.store.list(prefix, { startAfter, limit: pageLimit });
    listRev ??= page.revision;
    for (const kv of page.items) {
      if (limit && kvs.length >= limit) { more = true; break scan; }
      lastKey = kv.key;
      if (!opts.match || opts.match(decodeObject(rt, kv))) kvs.push(kv);
    }
    if (!page.more) break;
    if (!opts.match) { more = true; break; }
    startAfter = page.items[page.items.length - 1].key;
  }
  const result: RawListResult = { kvs, resourceVersion: String(listRev) };
  if (more && lastKey) result.continue = encodeContinue(listRev, lastKey);
  return result;
}

/** LIST, decoded */
export function listObjects(ctx: ApiContext, rt: ServedType, namespace: string | undefined, opts: ListOptions): ListResult {
  const { kvs, ...rest } = listRows(ctx, rt, namespace, opts);
  return { items: kvs.map((kv) => decodeObject(rt, kv)), ...rest };
}
