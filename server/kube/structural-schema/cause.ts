/** A field error as kube reports it in Status.details.causes (`type` is sent as `reason`). */
export interface Cause {
  type: string;
  field: string;
  message: string;
}

export const CAUSE_REQUIRED = 'FieldValueRequired';
export const CAUSE_INVALID = 'FieldValueInvalid';
export const CAUSE_NOT_SUPPORTED = 'FieldValueNotSupported';
export const CAUSE_TYPE_INVALID = 'FieldValueTypeInvalid';
export const CAUSE_DUPLICATE = 'FieldValueDuplicate';
export const CAUSE_TOO_LONG = 'FieldValueTooLong';
export const CAUSE_TOO_MANY = 'FieldValueTooMany';

/** JSON type name of a value, as kube's validator prints it. */
export function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** kube's Invalid-value rendering: strings quoted, numbers and booleans bare, objects as JSON. */
export const renderValue = (v: unknown) => JSON.stringify(v);
