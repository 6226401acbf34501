import { validateLabelKey, validateLabelValue } from '../../selectors';
import type { ApiObject, ApiObjectMeta } from '../types/api-object';
import type { ServedType } from '../types/resource-type';
import { invalid, type StatusCause } from '../status-error';

/** ObjectMeta validation with kube's field paths and messages (labels, annotations, ownerReferences, names). */
const ANNOTATIONS_MAX_BYTES = 256 * 1024;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

const invalidCause = (field: string, value: unknown, detail: string): StatusCause =>
  ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(value)}: ${detail}` });

function labelCauses(labels: unknown): StatusCause[] {
  if (labels === undefined || labels === null) return [];
  if (typeof labels !== 'object' || Array.isArray(labels)) return [invalidCause('metadata.labels', labels, 'must be a map of strings')];
  return Object.entries(labels as Record<string, unknown>).flatMap(([k, v]) => [
    ...validateLabelKey(k).map((m) => invalidCause('metadata.labels', k, m)),
    ...(typeof v === 'string' ? validateLabelValue(v) : ['must be a string']).map((m) => invalidCause('metadata.labels', v, m)),
  ]);
}

function annotationCauses(annotations: unknown): StatusCause[] {
  if (annotations === undefined || annotations === null) return [];
  if (typeof annotations !== 'object' || Array.isArray(annotations)) return [invalidCause('metadata.annotations', annotations, 'must be a map of strings')];
  const entries = Object.entries(annotations as Record<string, unknown>);
  const causes = entries.flatMap(([k]) => validateLabelKey(k).map((m) => invalidCause('metadata.annotations', k, m)));
  const bad = entries.find(([, v]) => typeof v !== 'string');
  if (bad) causes.push(invalidCause(`metadata.annotations[${bad[0]}]`, bad[1], 'must be a string'));
  const size = entries.reduce((n, [k, v]) => n + k.length + String(v).length, 0);
  if (size > ANNOTATIONS_MAX_BYTES) causes.push({ reason: 'FieldValueTooLong', field: 'metadata.annotations', message: `Too long: must have at most ${ANNOTATIONS_MAX_BYTES} bytes` });
  return causes;
}

function ownerReferenceCauses(refs: unknown): StatusCause[] {
  if (refs === undefined || refs === null) return [];
  if (!Array.isArray(refs)) return [invalidCause('metadata.ownerReferences', refs, 'must be a list')];
  return refs.flatMap((r: Record<string, unknown> | null | undefined, i: number) => (['apiVersion', 'kind', 'name', 'uid'] as const)
    .filter((f) => typeof r?.[f] !== 'string' || r[f] === '')
    .map((f) => invalidCause(`metadata.ownerReferences[${i}].${f}`, r?.[f] ?? '', `${f} must not be empty`)));
}

function nameCauses(rt: ServedType, name: string): StatusCause[] {
  if (rt.group || rt.resource !== 'namespaces') return [];
  if (name.length > 63) return [invalidCause('metadata.name', name, 'must be no more than 63 characters')];
  return DNS1123_LABEL.test(name) ? [] : [invalidCause('metadata.name', name, DNS1123_LABEL_MSG)];
}

/** throws 422 Invalid when the object's metadata is not what kube accepts */
export function validateObjectMeta(rt: ServedType, obj: ApiObject): void {
  const m: ApiObjectMeta = obj.metadata ?? {};
  const causes = [...nameCauses(rt, m.name ?? ''), ...labelCauses(m.labels), ...annotationCauses(m.annotations), ...ownerReferenceCauses(m.ownerReferences)];
  if (causes.length) throw invalid(rt, m.name ?? '', causes);
}
