import fjp, { type Operation } from 'fast-json-patch';
import { badPatch, unprocessablePatch } from './patch-error';

const { applyPatch, deepClone } = fjp;

/** kube rejects a JSON patch with more operations than this (413). */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/**
 * RFC 6902 JSON patch as kube-apiserver applies it: a body that is not an array of objects is a
 * 400 (it cannot be decoded); an operation that does not apply — a failed `test`, a missing path,
 * an unknown op — is a 422 with kube's generic message. The input is not modified. The result is
 * typed as the input, as fast-json-patch types it (callers check the shape where it matters).
 */
export function applyJsonPatch<T>(obj: T, ops: unknown): T {
  if (!Array.isArray(ops)) {
    throw badPatch('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  }
  if (ops.some((op) => op === null || typeof op !== 'object' || Array.isArray(op))) {
    throw badPatch('json: cannot unmarshal non-object into Go value of type jsonpatch.Operation');
  }
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    const err = badPatch(
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`,
    );
    Object.assign(err, { code: 413, reason: 'RequestEntityTooLarge' });
    throw err;
  }
  try {
    return applyPatch(deepClone(obj), deepClone(ops) as Operation[], true, true).newDocument;
  } catch (e) {
    throw unprocessablePatch(describeOpFailure(e));
  }
}

/** The evanphx/json-patch wording for the failure, for logs and callers that inspect `detail`. */
function describeOpFailure(e: unknown): string {
  const err = e as { name?: string; operation?: { op?: string; path?: string }; message?: string };
  const op = err.operation?.op ?? 'unknown';
  const path = err.operation?.path ?? '';
  if (err.name === 'TEST_OPERATION_FAILED') return `testing value ${path} failed: test failed`;
  if (err.name === 'OPERATION_OP_INVALID') return `Unexpected kind: ${op}`;
  return `jsonpatch ${op} operation does not apply: doc is missing path: ${path}`;
}
