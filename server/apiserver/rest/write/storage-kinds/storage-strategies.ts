/**
 * The registry strategies of PersistentVolumeClaim, PersistentVolume and StorageClass: kube's
 * defaults (applied to every write, as kube defaults every decoded body), the status a new
 * object starts with, and validation.
 */
import { nowTimestamp } from '../../codec/object-codec';
import type { Strategy } from '../strategies';
import { asRecord } from './field-errors';
import { validatePv, validatePvUpdate } from './pv-validation';
import { validatePvc, validatePvcUpdate } from './pvc-validation';
import { validateStorageClass, validateStorageClassUpdate } from './storageclass-validation';
import { checkQuantities } from './storage-quantity';
import { normalizeDataSources } from './pvc-data-source';

type Obj = Record<string, unknown>;

function specOf(obj: Obj): Obj {
  obj.spec = asRecord(obj.spec);
  return obj.spec as Obj;
}

function defaultPvc(pvc: Obj): void {
  specOf(pvc).volumeMode ??= 'Filesystem';
}

function defaultPv(pv: Obj): void {
  const spec = specOf(pv);
  spec.persistentVolumeReclaimPolicy ??= 'Retain';
  spec.volumeMode ??= 'Filesystem';
}

function defaultStorageClass(sc: Obj): void {
  sc.reclaimPolicy ??= 'Delete';
  sc.volumeBindingMode ??= 'Immediate';
}

const pvcQuantities = (pvc: Obj) => {
  const spec = asRecord(pvc.spec);
  checkQuantities('PersistentVolumeClaim', [asRecord(spec.resources).requests, asRecord(spec.resources).limits, asRecord(pvc.status).capacity]);
};

const pvQuantities = (pv: Obj) => checkQuantities('PersistentVolume', [asRecord(pv.spec).capacity]);

export const PVC_STRATEGY: Strategy = {
  prepareForCreate(pvc: Obj) {
    pvcQuantities(pvc);
    defaultPvc(pvc);
    normalizeDataSources(specOf(pvc));
    pvc.status = { phase: 'Pending' };
  },
  prepareForUpdate(pvc: Obj) {
    pvcQuantities(pvc);
    defaultPvc(pvc);
  },
  validate: validatePvc,
  validateUpdate: validatePvcUpdate,
};

export const PV_STRATEGY: Strategy = {
  prepareForCreate(pv: Obj) {
    pvQuantities(pv);
    defaultPv(pv);
    pv.status = { phase: 'Pending', lastPhaseTransitionTime: nowTimestamp() };
  },
  prepareForUpdate(pv: Obj) {
    pvQuantities(pv);
    defaultPv(pv);
  },
  /** a phase change stamps lastPhaseTransitionTime unless the writer set a new one */
  prepareForStatusUpdate(pv: Obj, old: Obj) {
    const status = asRecord(pv.status);
    const oldStatus = asRecord(old.status);
    if (status.phase !== oldStatus.phase && (!status.lastPhaseTransitionTime || status.lastPhaseTransitionTime === oldStatus.lastPhaseTransitionTime)) {
      pv.status = { ...status, lastPhaseTransitionTime: nowTimestamp() };
    }
  },
  validate: validatePv,
  validateUpdate: validatePvUpdate,
};

export const STORAGE_CLASS_STRATEGY: Strategy = {
  prepareForCreate: defaultStorageClass,
  prepareForUpdate: defaultStorageClass,
  validate: validateStorageClass,
  validateUpdate: validateStorageClassUpdate,
};
