import { badPatch } from './patch-error';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * RFC 7386 JSON merge patch: objects merge recursively, `null` deletes a key, anything else
 * (arrays included) replaces. A patch that is not an object is a 400 ("Invalid JSON Patch"),
 * as kube-apiserver answers. The input is not modified and
 * the result shares nothing with it.
 */
export function applyMergePatch(obj: unknown, patch: unknown): unknown {
  if (!isObject(patch)) throw badPatch('Invalid JSON Patch');
  return mergeValue(structuredClone(obj), patch);
}

function mergeValue(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergeValue(out[key], value);
  }
  return out;
}
