/** A claim's spec.dataSource / spec.dataSourceRef: kube's normalisation on create and its validation. */
import type { StatusCause } from '../../status-error';
import { asRecord, asString, invalidValue, required } from './field-errors';

type Obj = Record<string, unknown>;

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** NormalizeDataSources: each of dataSource and dataSourceRef is filled from the other (not across namespaces) */
export function normalizeDataSources(spec: Obj): void {
  const ds = spec.dataSource === undefined || spec.dataSource === null ? undefined : asRecord(spec.dataSource);
  const ref = spec.dataSourceRef === undefined || spec.dataSourceRef === null ? undefined : asRecord(spec.dataSourceRef);
  const pick = (o: Obj) => Object.fromEntries(['apiGroup', 'kind', 'name'].filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
  if (ds && !ref) spec.dataSourceRef = pick(ds);
  else if (ref && !ds && !asString(ref.namespace)) spec.dataSource = pick(ref);
}

function referenceCauses(value: Obj, p: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!asString(value.name)) causes.push(required(`${p}.name`));
  const kind = asString(value.kind) ?? '';
  if (!kind) causes.push(required(`${p}.kind`));
  const group = asString(value.apiGroup) ?? '';
  if (!group && kind !== 'PersistentVolumeClaim') causes.push(invalidValue(p, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  if (group && !DNS1123_SUBDOMAIN.test(group)) {
    causes.push(invalidValue(`${p}.apiGroup`, group, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
  }
  return causes;
}

export function dataSourceCauses(spec: Obj, p: string): StatusCause[] {
  const ds = spec.dataSource === undefined || spec.dataSource === null ? undefined : asRecord(spec.dataSource);
  const ref = spec.dataSourceRef === undefined || spec.dataSourceRef === null ? undefined : asRecord(spec.dataSourceRef);
  const causes = [...(ds ? referenceCauses(ds, `${p}.dataSource`) : []), ...(ref ? referenceCauses(ref, `${p}.dataSourceRef`) : [])];
  if (ds && ref) {
    if (asString(ref.namespace)) causes.push(invalidValue(p, `${p}.dataSource`, 'may not be specified when dataSourceRef.namespace is specified'));
    else if ((ds.apiGroup ?? '') !== (ref.apiGroup ?? '') || ds.kind !== ref.kind || ds.name !== ref.name) causes.push(invalidValue(p, `${p}.dataSource`, 'must match dataSourceRef'));
  }
  return causes;
}
