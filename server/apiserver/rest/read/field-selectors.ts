import { findUnsupportedField, matchFields, matchLabels, parseFieldSelector, parseLabelSelector, type FieldSelector, type LabelSelector } from '../../selectors';
import type { ApiObject } from '../types/api-object';
import type { ServedType } from '../types/resource-type';
import { badRequest } from '../status-error';

export type ObjectMatcher = (obj: ApiObject) => boolean;

/** builds one predicate from labelSelector and fieldSelector; 400 on a bad selector or field label */
export function buildMatcher(rt: ServedType, query: URLSearchParams): ObjectMatcher | undefined {
  const ls = query.get('labelSelector');
  const fs = query.get('fieldSelector');
  if (!ls && !fs) return undefined;
  let labels: LabelSelector | undefined;
  let fields: FieldSelector | undefined;
  try {
    if (ls) labels = parseLabelSelector(ls);
    if (fs) fields = parseFieldSelector(fs);
  } catch (e) {
    throw badRequest((e as Error).message);
  }
  const unsupported = fields && findUnsupportedField(fields, rt.builtin ? rt.kind : '', rt.selectableFields ?? []);
  if (unsupported) throw badRequest(`field label not supported: ${unsupported}`);
  return (obj) => (!labels || matchLabels(labels, obj.metadata?.labels)) && (!fields || matchFields(fields, obj));
}
