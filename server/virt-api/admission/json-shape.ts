/**
 * Guards for untrusted JSON: admission sees objects before schema validation,
 * so every read goes through these.
 */

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The object at `v`, or an empty object when `v` is not one. */
export function objectAt(v: unknown): JsonObject {
  return isObject(v) ? v : {};
}

/** The array at `v` keeping only object elements paired with their index, or [] when not an array. */
export function objectsAt(v: unknown): [JsonObject, number][] {
  if (!Array.isArray(v)) return [];
  const out: [JsonObject, number][] = [];
  v.forEach((e, i) => { if (isObject(e)) out.push([e, i]); });
  return out;
}

export function stringAt(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function numberAt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Deep copy of plain JSON (what admission objects are). */
export function cloneJson<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** Text of an untrusted value for a message: never calls a user-supplied `toString`. */
export function textOf(v: unknown, max = 64): string {
  const s = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v) ?? 'undefined';
  return s.length > max ? `${s.slice(0, max)}...` : s;
}
