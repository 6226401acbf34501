export { PatchError, MESSAGE_PATCH_NOT_APPLICABLE } from './patch-error';
export { applyJsonPatch, MAX_JSON_PATCH_OPERATIONS } from './json-patch';
export { applyMergePatch } from './merge-patch';
export { applyStrategicMergePatch, MESSAGE_UNSUPPORTED_PATCH_TYPE } from './strategic-merge';
export { STRATEGIC_MERGE_KINDS } from './strategic-merge-schema';
