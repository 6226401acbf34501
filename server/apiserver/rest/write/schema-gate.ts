import type { ApiContext } from '../api-context';
import { validateObject } from '../../crd/schema';
import type { ApiObject } from '../types/api-object';
import type { ServedType } from '../types/resource-type';
import { invalid } from '../status-error';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export function fieldValidationFrom(query: URLSearchParams): FieldValidation {
  const v = query.get('fieldValidation');
  return v === 'Strict' || v === 'Ignore' ? v : 'Warn';
}

/**
 * structural schema: validate, prune unknown fields, apply defaults; throws 422 Invalid.
 * inPlace: the caller gives obj up (a request's own decoded body), so it is changed instead of copied.
 */
export function validateAgainstSchema(ctx: ApiContext, rt: ServedType, obj: ApiObject, fieldValidation: FieldValidation, inPlace = false): { object: ApiObject; warnings: string[] } {
  const cs = ctx.registry.schemaFor(rt);
  if (!cs) return { object: obj, warnings: [] };
  const r = validateObject(cs, obj, { fieldValidation, inPlace });
  if (r.causes.length > 0) {
    throw invalid(rt, obj.metadata?.name ?? '', r.causes.map((c) => ({ reason: c.type, field: c.field, message: c.message })));
  }
  return { object: r.object as ApiObject, warnings: r.warnings };
}
