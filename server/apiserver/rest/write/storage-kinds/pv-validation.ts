/**
 * PersistentVolume validation (kube's ValidatePersistentVolume and ValidatePersistentVolumeUpdate):
 * pure functions returning the causes of a 422.
 */
import type { StatusCause } from '../../status-error';
import { accessModeCauses, volumeModeCauses } from './access-modes';
import { classNameCauses } from './class-name';
import { asRecord, asString, asStringList, fieldDiff, forbidden, immutable, invalidValue, notSupported, required, sameJson } from './field-errors';
import { nodeAffinityCauses } from './node-affinity';
import { volumeSourceCauses, volumeSourceOf } from './pv-sources';
import { parseQuantity } from './storage-quantity';

const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];

/** kube prints the capacity map Go-style in this message */
function goResourceList(capacity: Record<string, unknown>): string {
  const entries = Object.entries(capacity).map(([k, v]) => `"${k}":"${String(v)}"`);
  return `core.ResourceList{${entries.join(', ')}}`;
}

function capacityCauses(spec: Record<string, unknown>): StatusCause[] {
  const capacity = asRecord(spec.capacity);
  const keys = Object.keys(capacity);
  const causes: StatusCause[] = [];
  if (keys.length === 0) causes.push(required('spec.capacity'));
  if (!keys.includes('storage') || keys.length > 1) {
    causes.push({ reason: 'FieldValueNotSupported', field: 'spec.capacity', message: `Unsupported value: ${goResourceList(capacity)}: supported values: "storage"` });
  }
  for (const k of keys) {
    const bytes = parseQuantity(capacity[k]);
    if (bytes !== undefined && bytes <= 0) causes.push(invalidValue(`spec.capacity[${k}]`, bytes === 0 ? '0' : String(capacity[k]), 'must be greater than zero'));
  }
  return causes;
}

function reclaimPolicyCauses(spec: Record<string, unknown>): StatusCause[] {
  const policy = asString(spec.persistentVolumeReclaimPolicy) ?? '';
  const causes = policy && !RECLAIM_POLICIES.includes(policy) ? [notSupported('spec.persistentVolumeReclaimPolicy', policy, RECLAIM_POLICIES)] : [];
  const hostPath = asString(asRecord(spec.hostPath).path);
  if (hostPath !== undefined && hostPath.replace(/\/+$/, '') === '' && hostPath.startsWith('/') && policy === 'Recycle') {
    causes.push(forbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  }
  return causes;
}

export function validatePv(pv: unknown): StatusCause[] {
  const spec = asRecord(asRecord(pv).spec);
  const modes = asStringList(spec.accessModes);
  const causes: StatusCause[] = [];
  if (modes.length === 0) causes.push(required('spec.accessModes'));
  causes.push(...accessModeCauses(modes, 'spec.accessModes'));
  causes.push(...capacityCauses(spec));
  causes.push(...reclaimPolicyCauses(spec));
  const [hasAffinity, affinityCauses] = nodeAffinityCauses(spec.nodeAffinity);
  causes.push(...affinityCauses);
  causes.push(...volumeSourceCauses(spec, hasAffinity));
  causes.push(...classNameCauses(spec.storageClassName, 'spec.storageClassName'));
  causes.push(...volumeModeCauses(spec.volumeMode, 'spec.volumeMode'));
  return causes;
}

/** the volume source, volume mode and (once set) node affinity never change */
export function validatePvUpdate(pv: unknown, old: unknown): StatusCause[] {
  const causes = validatePv(pv);
  const spec = asRecord(asRecord(pv).spec);
  const oldSpec = asRecord(asRecord(old).spec);
  const source = volumeSourceOf(spec);
  const oldSource = volumeSourceOf(oldSpec);
  if (!sameJson(source, oldSource)) {
    causes.push(forbidden('spec.persistentvolumesource', `spec.persistentvolumesource is immutable after creation\n${fieldDiff(oldSource, source)}`));
  }
  if (!sameJson(spec.volumeMode, oldSpec.volumeMode)) causes.push(immutable('volumeMode', spec.volumeMode));
  if (oldSpec.nodeAffinity !== undefined && !sameJson(spec.nodeAffinity, oldSpec.nodeAffinity)) causes.push(immutable('nodeAffinity', spec.nodeAffinity));
  return causes;
}
