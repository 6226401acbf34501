/**
 * PURE: KubeVirt's rule for a VirtualMachineRestore's `spec.patches`: each string is one JSON Patch
 * operation, and its path may only reach under `/spec/`, or into `/metadata/labels/…` and
 * `/metadata/annotations/…`. KubeVirt splits the string on `,` and `:` to find the path (so a
 * value holding either is refused there); we parse it as JSON, so any value is fine, and we also
 * accept the whole `/metadata/labels` and `/metadata/annotations` maps (our clone controller
 * writes them that way).
 */
import { invalid, type Cause } from '../cause';
import { isObject } from '../json-shape';

const FIELD = 'spec.patches';
const METADATA_MAPS = ['/metadata/labels', '/metadata/annotations'];

function pathAllowed(path: string): boolean {
  if (path.startsWith('/spec/')) return true;
  return METADATA_MAPS.some((m) => path === m || path.startsWith(`${m}/`));
}

function checkOne(patch: unknown): Cause[] {
  if (typeof patch !== 'string') return [invalid(FIELD, `patch format is not valid - a patch must be a string holding one JSON patch operation: ${JSON.stringify(patch)}`)];
  let op: unknown;
  try {
    op = JSON.parse(patch);
  } catch {
    return [invalid(FIELD, `patch format is not valid - not a JSON patch operation: ${patch}`)];
  }
  if (!isObject(op) || typeof op.op !== 'string' || typeof op.path !== 'string') {
    return [invalid(FIELD, `patch format is not valid - a JSON patch operation needs "op" and "path": ${patch}`)];
  }
  // KubeVirt quotes the key/value pair it found; ours is rebuilt the same way
  if (!pathAllowed(op.path)) return [invalid(FIELD, `patching is valid only for elements under /spec/ only: "path": ${JSON.stringify(op.path)}`)];
  if (op.op === 'move' || op.op === 'copy') {
    if (typeof op.from !== 'string' || !pathAllowed(op.from)) return [invalid(FIELD, `patching is valid only for elements under /spec/ only: "from": ${JSON.stringify(op.from)}`)];
  }
  return [];
}

/** One cause per refused patch (KubeVirt reports them all). */
export function validateRestorePatches(patches: unknown): Cause[] {
  if (patches === undefined || patches === null) return [];
  if (!Array.isArray(patches)) return [invalid(FIELD, 'spec.patches: must be a list of strings')];
  return patches.flatMap(checkOne);
}
