/** kubectl's columns for PersistentVolumeClaim, PersistentVolume and StorageClass (kube's internalversion printers). */
import type { BuiltinColumn } from './builtin-columns';
import { humanAge } from './human-duration';

type Obj = Record<string, unknown>;

const rec = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const meta = (o: unknown) => rec(rec(o).metadata);
const spec = (o: unknown) => rec(rec(o).spec);
const status = (o: unknown) => rec(rec(o).status);

const MODE_ABBREVIATIONS: [string, string][] = [['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']];

/** helper.GetAccessModesAsString: RWO,ROX,RWX,RWOP in that order */
export function accessModesString(modes: unknown): string {
  const list = Array.isArray(modes) ? modes : [];
  return MODE_ABBREVIATIONS.filter(([m]) => list.includes(m)).map(([, a]) => a).join(',');
}

const BETA_CLASS = 'volume.beta.kubernetes.io/storage-class';
const DEFAULT_CLASS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

function className(o: unknown): string {
  const a = rec(meta(o).annotations);
  return typeof a[BETA_CLASS] === 'string' ? a[BETA_CLASS] : str(spec(o).storageClassName);
}

const phase = (o: unknown) => (meta(o).deletionTimestamp ? 'Terminating' : str(status(o).phase));
const attributesClass = (o: unknown) => str(spec(o).volumeAttributesClassName) || '<unset>';
const volumeMode = (o: unknown) => str(spec(o).volumeMode) || '<unset>';
const age: BuiltinColumn = { name: 'Age', type: 'string', cell: (o, now) => humanAge(meta(o).creationTimestamp, now) };
const column = (name: string, cell: (o: unknown) => unknown, priority?: number): BuiltinColumn => ({ name, type: 'string', cell, priority });

const bound = (o: unknown) => Boolean(spec(o).volumeName);

export const PVC_COLUMNS: BuiltinColumn[] = [
  column('Status', phase),
  column('Volume', (o) => str(spec(o).volumeName)),
  column('Capacity', (o) => (bound(o) ? str(rec(status(o).capacity).storage) : '')),
  column('Access Modes', (o) => (bound(o) ? accessModesString(status(o).accessModes) : '')),
  column('StorageClass', className),
  column('VolumeAttributesClass', attributesClass),
  age,
  column('VolumeMode', volumeMode, 1),
];

function claimRef(o: unknown): string {
  const ref = spec(o).claimRef;
  return ref ? `${str(rec(ref).namespace)}/${str(rec(ref).name)}` : '';
}

export const PV_COLUMNS: BuiltinColumn[] = [
  column('Capacity', (o) => str(rec(spec(o).capacity).storage)),
  column('Access Modes', (o) => accessModesString(spec(o).accessModes)),
  column('Reclaim Policy', (o) => str(spec(o).persistentVolumeReclaimPolicy)),
  column('Status', phase),
  column('Claim', claimRef),
  column('StorageClass', className),
  column('VolumeAttributesClass', attributesClass),
  column('Reason', (o) => str(status(o).reason)),
  age,
  column('VolumeMode', volumeMode, 1),
];

export const STORAGE_CLASS_COLUMNS: BuiltinColumn[] = [
  column('Provisioner', (o) => str(rec(o).provisioner)),
  column('ReclaimPolicy', (o) => str(rec(o).reclaimPolicy) || 'Delete'),
  column('VolumeBindingMode', (o) => str(rec(o).volumeBindingMode) || 'Immediate'),
  column('AllowVolumeExpansion', (o) => rec(o).allowVolumeExpansion === true),
  age,
];

/** the Name cell: a default StorageClass is printed `name (default)` */
export function storageClassName(o: unknown): string {
  const a = rec(meta(o).annotations);
  const name = str(meta(o).name);
  return DEFAULT_CLASS.some((k) => a[k] === 'true') ? `${name} (default)` : name;
}
