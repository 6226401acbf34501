/**
 * PersistentVolumeClaim validation (kube's ValidatePersistentVolumeClaim and
 * ValidatePersistentVolumeClaimUpdate): pure functions returning the causes of a 422.
 */
import type { StatusCause } from '../../status-error';
import { accessModeCauses, volumeModeCauses } from './access-modes';
import { classNameCauses } from './class-name';
import { dataSourceCauses } from './pvc-data-source';
import { asRecord, asString, asStringList, fieldDiff, forbidden, immutable, invalidValue, required, sameJson } from './field-errors';
import { parseQuantity, storageBytes } from './storage-quantity';

const STORAGE_FIELD = 'spec.resources[storage]';

function storageRequestCauses(spec: Record<string, unknown>): StatusCause[] {
  const requests = asRecord(asRecord(spec.resources).requests);
  if (!('storage' in requests)) return [required(STORAGE_FIELD)];
  const bytes = parseQuantity(requests.storage);
  if (bytes !== undefined && bytes <= 0) return [invalidValue(STORAGE_FIELD, bytes === 0 ? '0' : String(requests.storage), 'must be greater than zero')];
  return [];
}

/** ValidatePersistentVolumeClaimSpec */
export function validatePvcSpec(specValue: unknown, path = 'spec'): StatusCause[] {
  const spec = asRecord(specValue);
  const modes = asStringList(spec.accessModes);
  const causes: StatusCause[] = [];
  if (modes.length === 0) causes.push(required(`${path}.accessModes`, 'at least 1 access mode is required'));
  causes.push(...accessModeCauses(modes, `${path}.accessModes`));
  causes.push(...storageRequestCauses(spec));
  causes.push(...classNameCauses(spec.storageClassName, `${path}.storageClassName`));
  causes.push(...volumeModeCauses(spec.volumeMode, `${path}.volumeMode`));
  causes.push(...dataSourceCauses(spec, path));
  causes.push(...classNameCauses(spec.volumeAttributesClassName, `${path}.volumeAttributesClassName`));
  return causes;
}

export function validatePvc(pvc: unknown): StatusCause[] {
  return validatePvcSpec(asRecord(pvc).spec);
}

/** the spec with what an update may change put back to the old values */
function comparableSpecs(pvc: Record<string, unknown>, old: Record<string, unknown>): { next: Record<string, unknown>; prev: Record<string, unknown> } {
  const next = structuredClone(asRecord(pvc.spec));
  const prev = structuredClone(asRecord(old.spec));
  // the binder sets volumeName once; a class may be given to a claim that had none
  if (!prev.volumeName) prev.volumeName = next.volumeName;
  if (prev.storageClassName === undefined && next.storageClassName !== undefined) prev.storageClassName = next.storageClassName;
  if (asString(asRecord(pvc.status).phase) === 'Bound') {
    const nextRequests = asRecord(asRecord(next.resources).requests);
    if (next.resources && asRecord(next.resources).requests) nextRequests.storage = asRecord(asRecord(prev.resources).requests).storage;
    if (next.volumeAttributesClassName !== undefined) next.volumeAttributesClassName = prev.volumeAttributesClassName;
  }
  for (const s of [next, prev]) for (const k of Object.keys(s)) if (s[k] === undefined) delete s[k];
  return { next, prev };
}

/** ValidatePersistentVolumeClaimUpdate (RecoverVolumeExpansionFailure on, as in kube 1.32) */
export function validatePvcUpdate(pvcValue: unknown, oldValue: unknown): StatusCause[] {
  const pvc = asRecord(pvcValue);
  const old = asRecord(oldValue);
  const causes = validatePvc(pvc);
  const { next, prev } = comparableSpecs(pvc, old);
  if (!sameJson(next, prev)) {
    causes.push(forbidden('spec', `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${fieldDiff(prev, next)}`));
  }
  const newSize = storageBytes(asRecord(asRecord(pvc.spec).resources).requests) ?? 0;
  const oldSize = storageBytes(asRecord(asRecord(old.spec).resources).requests) ?? 0;
  const statusSize = storageBytes(asRecord(old.status).capacity) ?? 0;
  if (newSize < oldSize && newSize <= statusSize) {
    causes.push(forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  }
  const newMode = asRecord(pvc.spec).volumeMode;
  if (!sameJson(newMode, asRecord(old.spec).volumeMode)) causes.push(immutable('volumeMode', newMode));
  return causes;
}
