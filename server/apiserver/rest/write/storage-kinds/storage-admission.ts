/**
 * The storage admission plugins kube-apiserver enables by default, as built-in admission steps:
 * DefaultStorageClass, StorageObjectInUseProtection (both mutating, on create) and
 * PersistentVolumeClaimResize (validating, on update).
 */
import type { Store } from '../../../store/types';
import { objectPrefix } from '../../codec/object-codec';
import { forbidden } from '../../status-error';
import { asRecord, asString } from './field-errors';
import { parseQuantity } from './storage-quantity';

export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';
export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
export const BETA_DEFAULT_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';
export const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

const STORAGE_CLASSES = { group: 'storage.k8s.io', resource: 'storageclasses', namespaced: false };

type Obj = Record<string, unknown>;

export interface StorageAdmissionInput {
  resource: string;
  group: string;
  subresource?: string;
  object: Obj;
  oldObject?: Obj;
}

export function listStorageClasses(store: Store): Obj[] {
  return store.list(objectPrefix(STORAGE_CLASSES)).items.map((kv) => JSON.parse(kv.value) as Obj);
}

export function isDefaultClass(sc: Obj): boolean {
  const a = asRecord(asRecord(sc.metadata).annotations);
  return a[DEFAULT_CLASS_ANNOTATION] === 'true' || a[BETA_DEFAULT_CLASS_ANNOTATION] === 'true';
}

/** kube's GetDefaultClass: the newest default class, ties broken by name */
export function defaultClass(classes: Obj[]): Obj | undefined {
  const meta = (c: Obj) => asRecord(c.metadata);
  const created = (c: Obj) => Date.parse(asString(meta(c).creationTimestamp) ?? '') || 0;
  const name = (c: Obj) => asString(meta(c).name) ?? '';
  return classes.filter(isDefaultClass).sort((a, b) => created(b) - created(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0))[0];
}

/** a PVC's class: the beta annotation wins over spec.storageClassName; '' when none */
export function claimClass(pvc: Obj): string {
  const a = asRecord(asRecord(pvc.metadata).annotations);
  if (typeof a[BETA_CLASS_ANNOTATION] === 'string') return a[BETA_CLASS_ANNOTATION] as string;
  return asString(asRecord(pvc.spec).storageClassName) ?? '';
}

function hasClass(pvc: Obj): boolean {
  return BETA_CLASS_ANNOTATION in asRecord(asRecord(pvc.metadata).annotations) || asRecord(pvc.spec).storageClassName !== undefined;
}

function addFinalizer(obj: Obj, finalizer: string): void {
  const meta = asRecord(obj.metadata);
  const fins = Array.isArray(meta.finalizers) ? (meta.finalizers as unknown[]) : [];
  if (!fins.includes(finalizer)) meta.finalizers = [...fins, finalizer];
}

/** DefaultStorageClass and StorageObjectInUseProtection: mutates a new PVC or PV in place */
export function admitStorageCreate(store: Store, input: StorageAdmissionInput): void {
  if (input.group !== '' || input.subresource) return;
  if (input.resource === 'persistentvolumes') addFinalizer(input.object, PV_PROTECTION_FINALIZER);
  if (input.resource !== 'persistentvolumeclaims') return;
  if (!hasClass(input.object)) {
    const def = defaultClass(listStorageClasses(store));
    if (def) asRecord(input.object.spec).storageClassName = asString(asRecord(def.metadata).name);
  }
  addFinalizer(input.object, PVC_PROTECTION_FINALIZER);
}

const storageRequest = (pvc: Obj) => asRecord(asRecord(asRecord(pvc.spec).resources).requests).storage;

/** the Forbidden reason PersistentVolumeClaimResize refuses a grown request with, or undefined */
export function resizeRefusal(pvc: Obj, old: Obj, classes: Obj[]): string | undefined {
  const newSize = parseQuantity(storageRequest(pvc)) ?? 0;
  const oldSize = parseQuantity(storageRequest(old)) ?? 0;
  if (newSize <= oldSize) return undefined;
  if (asRecord(old.status).phase !== 'Bound') return 'Only bound persistent volume claims can be expanded';
  const cls = claimClass(pvc);
  const sc = cls && cls === claimClass(old) ? classes.find((c) => asRecord(c.metadata).name === cls) : undefined;
  if (sc?.allowVolumeExpansion === true) return undefined;
  return 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';
}

/** PersistentVolumeClaimResize: throws kube's 403 when a claim's storage request grows where it may not */
export function validateStorageUpdate(store: Store, input: StorageAdmissionInput): void {
  if (input.group !== '' || input.resource !== 'persistentvolumeclaims' || input.subresource || !input.oldObject) return;
  const why = resizeRefusal(input.object, input.oldObject, listStorageClasses(store));
  if (!why) return;
  const name = asString(asRecord(input.object.metadata).name) ?? '';
  throw forbidden(`persistentvolumeclaims "${name}" is forbidden: ${why}`, { name, kind: 'persistentvolumeclaims' });
}
