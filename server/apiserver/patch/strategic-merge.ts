import { PatchError, REASON_INVALID, REASON_UNSUPPORTED_MEDIA_TYPE, badPatch } from './patch-error';
import { STRATEGIC_MERGE_KINDS, listStrategyFor } from './strategic-merge-schema';

type Obj = Record<string, unknown>;

const PATCH_DIRECTIVE = '$patch';
const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
const SET_ORDER_PREFIX = '$setElementOrder/';
const DELETE_PRIMITIVE_PREFIX = '$deleteFromPrimitiveList/';

/** kube's 415 for a strategic merge patch on a custom resource. */
export const MESSAGE_UNSUPPORTED_PATCH_TYPE =
  'the body of the request was in an unknown format - accepted media types include: ' +
  'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml';

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isDirectiveKey = (k: string) =>
  k === PATCH_DIRECTIVE || k === RETAIN_KEYS_DIRECTIVE || k.startsWith(SET_ORDER_PREFIX) || k.startsWith(DELETE_PRIMITIVE_PREFIX);

interface Ctx {
  kind: string;
  path: string[];
}

/**
 * Strategic merge patch for the built-in kinds, in the shapes `kubectl apply` and `kubectl patch`
 * send: lists with a merge key merge element-wise (`$patch: delete` removes one), primitive merge
 * lists (finalizers) merge as sets, other lists are replaced; `null` deletes a key; directives
 * `$patch: replace|delete`, `$retainKeys`, `$setElementOrder/<list>` and
 * `$deleteFromPrimitiveList/<list>` are honoured. Custom resources → 415, as kube answers.
 */
export function applyStrategicMergePatch(obj: unknown, patch: unknown, kind: string): Obj {
  if (!STRATEGIC_MERGE_KINDS.has(kind)) {
    throw new PatchError(415, REASON_UNSUPPORTED_MEDIA_TYPE, MESSAGE_UNSUPPORTED_PATCH_TYPE);
  }
  if (!isObject(patch)) throw badPatch('json: cannot unmarshal array into Go value of type map[string]interface {}');
  return mergeMap(isObject(obj) ? structuredClone(obj) : {}, patch, { kind, path: [] }) ?? {};
}

/** Returns undefined when the patch deletes the map itself. */
function mergeMap(original: Obj, patch: Obj, ctx: Ctx): Obj | undefined {
  const directive = patch[PATCH_DIRECTIVE];
  if (directive === 'delete') return undefined;
  if (directive === 'replace') {
    const { [PATCH_DIRECTIVE]: _, ...rest } = patch;
    return mergeMap({}, rest, ctx);
  }
  if (directive !== undefined && directive !== 'merge') {
    throw badPatch(`unknown patch type: ${String(directive)} in map: ${JSON.stringify(patch)}`);
  }
  const result: Obj = applyRetainKeys({ ...original }, patch);
  deleteFromPrimitiveLists(result, patch);
  for (const [key, value] of Object.entries(patch)) {
    if (isDirectiveKey(key)) continue;
    const merged = mergeField(result[key], value, { ...ctx, path: [...ctx.path, key] });
    if (merged === undefined) delete result[key];
    else result[key] = merged;
  }
  applyElementOrders(result, patch, ctx);
  return result;
}

function mergeField(original: unknown, value: unknown, ctx: Ctx): unknown {
  if (value === null) return undefined;
  if (isObject(value)) return mergeMap(isObject(original) ? original : {}, value, ctx);
  if (Array.isArray(value)) return mergeList(Array.isArray(original) ? original : [], value, ctx);
  return value;
}

function applyRetainKeys(result: Obj, patch: Obj): Obj {
  const retain = patch[RETAIN_KEYS_DIRECTIVE];
  if (retain === undefined) return result;
  if (!Array.isArray(retain) || retain.some((k) => typeof k !== 'string')) {
    throw badPatch('invalid patch format of retainKeys');
  }
  const keep = new Set<string>(retain);
  if (Object.keys(patch).some((k) => !isDirectiveKey(k) && !keep.has(k))) {
    throw new PatchError(422, REASON_INVALID, "patch content doesn't match retainKeys list");
  }
  for (const k of Object.keys(result)) if (!keep.has(k)) delete result[k];
  return result;
}

function deleteFromPrimitiveLists(result: Obj, patch: Obj): void {
  for (const [key, values] of Object.entries(patch)) {
    if (!key.startsWith(DELETE_PRIMITIVE_PREFIX)) continue;
    if (!Array.isArray(values)) throw badPatch('invalid patch format of primitive list');
    const field = key.slice(DELETE_PRIMITIVE_PREFIX.length);
    const list = result[field];
    if (Array.isArray(list)) result[field] = list.filter((v: unknown) => !values.includes(v));
  }
}

function mergeList(original: unknown[], patch: unknown[], ctx: Ctx): unknown[] {
  const strategy = listStrategyFor(ctx.kind, ctx.path);
  if (!strategy) return patch;
  if (patch.some((e) => isObject(e) && e[PATCH_DIRECTIVE] === 'replace')) {
    return patch.filter((e) => !(isObject(e) && e[PATCH_DIRECTIVE] === 'replace'));
  }
  if (!strategy.mergeKey) return [...original, ...patch.filter((v) => !original.includes(v))];
  return mergeKeyedList(original, patch, strategy.mergeKey, ctx);
}

function mergeKeyedList(original: unknown[], patch: unknown[], mergeKey: string, ctx: Ctx): unknown[] {
  let result = [...original];
  for (const item of patch) {
    if (!isObject(item) || item[mergeKey] === undefined) {
      throw badPatch(`map: ${JSON.stringify(item)} does not contain declared merge key: ${mergeKey}`);
    }
    const key = item[mergeKey];
    if (item[PATCH_DIRECTIVE] === 'delete') {
      result = result.filter((e) => !(isObject(e) && e[mergeKey] === key));
      continue;
    }
    const idx = result.findIndex((e) => isObject(e) && e[mergeKey] === key);
    if (idx >= 0) result[idx] = mergeMap(result[idx] as Obj, item, ctx);
    else result.push(mergeMap({}, item, ctx));
  }
  return result.filter((e) => e !== undefined);
}

/**
 * `$setElementOrder/<list>`: the listed elements take the given order; elements the server has
 * and the patch does not name keep their relative order after them.
 */
function applyElementOrders(result: Obj, patch: Obj, ctx: Ctx): void {
  for (const [key, order] of Object.entries(patch)) {
    if (!key.startsWith(SET_ORDER_PREFIX)) continue;
    if (!Array.isArray(order)) throw badPatch('invalid patch format of setElementOrder list');
    const field = key.slice(SET_ORDER_PREFIX.length);
    const list = result[field];
    if (!Array.isArray(list)) continue;
    const mergeKey = listStrategyFor(ctx.kind, [...ctx.path, field])?.mergeKey;
    const identity = (e: unknown) => (mergeKey && isObject(e) ? e[mergeKey] : e);
    const wanted = order.map(identity);
    const rank = (e: unknown) => {
      const i = wanted.indexOf(identity(e));
      return i < 0 ? wanted.length : i;
    };
    result[field] = list
      .map((e, i) => ({ e, i }))
      .sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i)
      .map(({ e }) => e);
  }
}
