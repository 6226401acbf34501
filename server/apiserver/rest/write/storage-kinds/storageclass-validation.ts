/** StorageClass validation (kube's pkg/apis/storage/validation): pure functions returning the causes of a 422. */
import type { StatusCause } from '../../status-error';
import { asRecord, asString, forbidden, immutable, invalidValue, notSupported, required, sameJson } from './field-errors';

const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
const MAX_PARAMETERS = 512;
const MAX_PARAMETER_BYTES = 256 * 1024;
const QUALIFIED_NAME = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const QUALIFIED_NAME_MSG = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

function provisionerCauses(value: unknown): StatusCause[] {
  const p = asString(value) ?? '';
  if (!p) return [required('provisioner')];
  return QUALIFIED_NAME.test(p.toLowerCase()) ? [] : [invalidValue('provisioner', p, QUALIFIED_NAME_MSG)];
}

function parameterCauses(value: unknown): StatusCause[] {
  const entries = Object.entries(asRecord(value));
  if (entries.length > MAX_PARAMETERS) return [{ reason: 'FieldValueTooLong', field: 'parameters', message: `Too long: may not have more than ${MAX_PARAMETERS} items` }];
  const causes: StatusCause[] = [];
  if (entries.some(([k]) => k === '')) causes.push(invalidValue('parameters', '', 'field can not be empty.'));
  const size = entries.reduce((n, [k, v]) => n + k.length + String(v).length, 0);
  if (size > MAX_PARAMETER_BYTES) causes.push({ reason: 'FieldValueTooLong', field: 'parameters', message: `Too long: may not be more than ${MAX_PARAMETER_BYTES} bytes` });
  return causes;
}

export function validateStorageClass(scValue: unknown): StatusCause[] {
  const sc = asRecord(scValue);
  const causes = [...provisionerCauses(sc.provisioner), ...parameterCauses(sc.parameters)];
  const policy = asString(sc.reclaimPolicy) ?? '';
  if (policy && !RECLAIM_POLICIES.includes(policy)) causes.push(notSupported('reclaimPolicy', policy, RECLAIM_POLICIES));
  if (sc.volumeBindingMode === undefined || sc.volumeBindingMode === null) causes.push(required('volumeBindingMode'));
  else if (!BINDING_MODES.includes(String(sc.volumeBindingMode))) causes.push(notSupported('volumeBindingMode', sc.volumeBindingMode, BINDING_MODES));
  return causes;
}

export function validateStorageClassUpdate(scValue: unknown, oldValue: unknown): StatusCause[] {
  const sc = asRecord(scValue);
  const old = asRecord(oldValue);
  const causes = validateStorageClass(sc);
  if (!sameJson(sc.parameters ?? {}, old.parameters ?? {})) causes.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  if (sc.provisioner !== old.provisioner) causes.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (sc.reclaimPolicy !== old.reclaimPolicy) causes.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (sc.volumeBindingMode !== old.volumeBindingMode) causes.push(immutable('volumeBindingMode', sc.volumeBindingMode));
  return causes;
}
