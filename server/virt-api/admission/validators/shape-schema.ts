/**
 * A tiny structural schema, enough to check the JSON types of every field the
 * validators and mutators read. Errors read like the API server's OpenAPI ones:
 * `spec.domain.devices.disks in body must be of type array: "object"`.
 */
import { invalid, type Cause } from '../cause';
import { textOf } from '../json-shape';
import { parseQuantity, QUANTITY_FORMAT_ERROR } from '../../../../lib/kubevirt/quantity';

export type Shape =
  | { t: 'object'; props?: Record<string, Shape>; values?: Shape }
  | { t: 'array'; items: Shape }
  | { t: 'string' }
  | { t: 'integer' }
  | { t: 'boolean' }
  | { t: 'quantity' }
  | { t: 'any' };

export const str: Shape = { t: 'string' };
export const int: Shape = { t: 'integer' };
export const bool: Shape = { t: 'boolean' };
export const qty: Shape = { t: 'quantity' };
export const any: Shape = { t: 'any' };
export const obj = (props?: Record<string, Shape>): Shape => ({ t: 'object', props });
export const arr = (items: Shape): Shape => ({ t: 'array', items });
export const map = (values: Shape): Shape => ({ t: 'object', values });

/** Most causes one shape check reports (keeps responses small for hostile input). */
const MAX_SHAPE_CAUSES = 20;

function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeError(field: string, want: string, v: unknown): Cause {
  return invalid(field, `${field} in body must be of type ${want}: "${jsonTypeOf(v)}"`);
}

/** Check `v` against `shape`; `null` counts as absent, as in the API server. */
export function checkShape(v: unknown, shape: Shape, field: string, out: Cause[] = []): Cause[] {
  if (v === undefined || v === null || out.length >= MAX_SHAPE_CAUSES) return out;
  switch (shape.t) {
    case 'any':
      return out;
    case 'string':
    case 'boolean':
    case 'integer':
    case 'quantity':
      return checkScalar(v, shape.t, field, out);
    case 'array':
      if (!Array.isArray(v)) out.push(typeError(field, 'array', v));
      else v.forEach((e, i) => checkShape(e, shape.items, `${field}[${i}]`, out));
      return out;
    case 'object':
      return checkObject(v, shape, field, out);
  }
}

function checkScalar(v: unknown, t: 'string' | 'boolean' | 'integer' | 'quantity', field: string, out: Cause[]): Cause[] {
  if (t === 'quantity') {
    if (parseQuantity(v) === undefined) out.push(invalid(field, `${field}: Invalid value: "${textOf(v)}": ${QUANTITY_FORMAT_ERROR}`));
  } else if (t === 'integer') {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) out.push(typeError(field, 'integer', v));
  } else if (typeof v !== t) {
    out.push(typeError(field, t, v));
  }
  return out;
}

function checkObject(v: unknown, shape: Extract<Shape, { t: 'object' }>, field: string, out: Cause[]): Cause[] {
  if (typeof v !== 'object' || Array.isArray(v)) {
    out.push(typeError(field, 'object', v));
    return out;
  }
  const o = v as Record<string, unknown>;
  for (const [k, s] of Object.entries(shape.props ?? {})) checkShape(o[k], s, field ? `${field}.${k}` : k, out);
  if (shape.values) for (const [k, e] of Object.entries(o)) checkShape(e, shape.values, `${field}.${k}`, out);
  return out;
}
