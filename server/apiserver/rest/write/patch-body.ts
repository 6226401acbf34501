import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from '../../patch';
import { mediaType, parseBody } from '../codec/http-io';
import type { ApiObject } from '../types/api-object';
import type { ServedType } from '../types/resource-type';
import { applyConfiguration } from './apply-patch';
import { badRequest, unsupportedMediaType } from '../status-error';

export const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];
const STRATEGIC = 'application/strategic-merge-patch+json';
export const APPLY = 'application/apply-patch+yaml';

export interface ParsedPatch {
  type: string;
  body: unknown;
  /** computes the patched object from the current one */
  apply: (current: ApiObject) => unknown;
}

/** decodes a PATCH body by its Content-Type and returns the function that applies it */
export function parsePatch(rt: ServedType, contentType: string | undefined, raw: Buffer, fieldManager = ''): ParsedPatch {
  const type = mediaType(contentType);
  const accepted = rt.builtin ? [...PATCH_TYPES, STRATEGIC] : PATCH_TYPES;
  if (!accepted.includes(type)) throw unsupportedMediaType(type, accepted);
  const body = parseBody(raw, type);
  switch (type) {
    case 'application/json-patch+json':
      return { type, body, apply: (cur) => applyJsonPatch(cur, body) };
    case 'application/merge-patch+json':
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}');
      return { type, body, apply: (cur) => applyMergePatch(cur, body) };
    case STRATEGIC:
      return { type, body, apply: (cur) => applyStrategicMergePatch(cur, body, rt.kind) };
    default:
      return { type, body, apply: (cur) => applyConfiguration(rt, cur, body, fieldManager) };
  }
}
