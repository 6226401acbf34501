/** A validation failure, shaped as a Kubernetes `StatusCause`. Validators return these and never throw. */

export const CauseType = {
  FieldValueInvalid: 'FieldValueInvalid',
  FieldValueRequired: 'FieldValueRequired',
  FieldValueNotSupported: 'FieldValueNotSupported',
  FieldValueDuplicate: 'FieldValueDuplicate',
  FieldValueForbidden: 'FieldValueForbidden',
  FieldValueNotFound: 'FieldValueNotFound',
  FieldValueTooLong: 'FieldValueTooLong',
  FieldValueTooMany: 'FieldValueTooMany',
  UnexpectedServerResponse: 'UnexpectedServerResponse',
} as const;
export type CauseType = (typeof CauseType)[keyof typeof CauseType];

export interface Cause {
  type: CauseType;
  field: string;
  message: string;
}

export function invalid(field: string, message: string): Cause {
  return { type: CauseType.FieldValueInvalid, field, message };
}
export function required(field: string, message: string): Cause {
  return { type: CauseType.FieldValueRequired, field, message };
}
export function notSupported(field: string, message: string): Cause {
  return { type: CauseType.FieldValueNotSupported, field, message };
}
export function duplicate(field: string, message: string): Cause {
  return { type: CauseType.FieldValueDuplicate, field, message };
}
export function forbidden(field: string, message: string): Cause {
  return { type: CauseType.FieldValueForbidden, field, message };
}
