/**
 * `spec.instancetype.inferFromVolume` / `spec.preference.inferFromVolume`, as KubeVirt's VM
 * mutator applies them: the named volume's PVC, DataVolume (or the VM's DataVolumeTemplate) or
 * DataSource carries `instancetype.kubevirt.io/default-instancetype` (+`-kind`) and
 * `instancetype.kubevirt.io/default-preference` (+`-kind`) labels; the matcher is replaced by the
 * name and kind found. Pure apart from the injected lookups (which answer `undefined` for an
 * object that does not exist).
 */
import type { VirtualMachine } from './vm-types';

export const DEFAULT_INSTANCETYPE_LABEL = 'instancetype.kubevirt.io/default-instancetype';
export const DEFAULT_INSTANCETYPE_KIND_LABEL = 'instancetype.kubevirt.io/default-instancetype-kind';
export const DEFAULT_PREFERENCE_LABEL = 'instancetype.kubevirt.io/default-preference';
export const DEFAULT_PREFERENCE_KIND_LABEL = 'instancetype.kubevirt.io/default-preference-kind';

export type InferFailurePolicy = 'Reject' | 'Ignore';

/** What the inference reads; every lookup answers `undefined` when the object does not exist. */
export interface VolumeSourceLookups {
  pvc(namespace: string, name: string): Promise<Labelled | undefined>;
  dataVolume(namespace: string, name: string): Promise<(Labelled & { spec?: DataVolumeSpecLike }) | undefined>;
  dataSource(namespace: string, name: string): Promise<(Labelled & { spec?: { source?: { pvc?: PvcRef } } }) | undefined>;
}

interface Labelled { labels?: Record<string, string> }
interface PvcRef { name?: string; namespace?: string }
export interface DataVolumeSpecLike {
  source?: { pvc?: PvcRef } & Record<string, unknown>;
  sourceRef?: { kind?: string; name?: string; namespace?: string };
}

/**
 * An inference failure; `ignorable` ones (no label, a volume type or source that carries none) are
 * dropped under `inferFromVolumeFailurePolicy: Ignore`, the rest always refuse the VM.
 */
export class InferenceError extends Error {
  constructor(message: string, readonly ignorable: boolean) {
    super(message);
  }
}

const ignorable = (message: string) => new InferenceError(message, true);
const notFound = (resource: string, name: string) => new InferenceError(`${resource} "${name}" not found`, false);

interface Labels { name: string; kind: string }
interface Found { name: string; kind?: string }

function fromLabels(labels: Record<string, string> | undefined, want: Labels): Found {
  const name = labels?.[want.name];
  if (name === undefined) throw ignorable(`unable to find required ${want.name} label on the volume`);
  const kind = labels?.[want.kind];
  return kind ? { name, kind } : { name };
}

async function fromPVC(l: VolumeSourceLookups, namespace: string, name: string, want: Labels): Promise<Found> {
  const pvc = await l.pvc(namespace, name);
  if (!pvc) throw notFound('persistentvolumeclaims', name);
  return fromLabels(pvc.labels, want);
}

async function fromDataSource(l: VolumeSourceLookups, namespace: string, name: string, want: Labels): Promise<Found> {
  const ds = await l.dataSource(namespace, name);
  if (!ds) throw notFound('datasources.cdi.kubevirt.io', name);
  if (ds.labels?.[want.name] !== undefined) return fromLabels(ds.labels, want);
  const pvc = ds.spec?.source?.pvc;
  if (pvc?.name) return fromPVC(l, pvc.namespace ?? namespace, pvc.name, want);
  throw ignorable("unable to infer defaults from DataSource that doesn't provide DataVolumeSourcePVC");
}

async function fromDataVolumeSpec(l: VolumeSourceLookups, namespace: string, spec: DataVolumeSpecLike | undefined, want: Labels): Promise<Found> {
  const pvc = spec?.source?.pvc;
  if (pvc?.name) return fromPVC(l, pvc.namespace ?? namespace, pvc.name, want);
  const ref = spec?.sourceRef;
  if (ref) {
    if (ref.kind !== 'DataSource') throw ignorable(`unable to infer defaults from DataVolumeSourceRef as Kind ${ref.kind ?? ''} is not supported`);
    return fromDataSource(l, ref.namespace ?? namespace, ref.name ?? '', want);
  }
  throw ignorable('unable to infer defaults from DataVolumeSpec as DataVolumeSource is not supported');
}

async function fromDataVolume(l: VolumeSourceLookups, vm: VirtualMachine, namespace: string, name: string, want: Labels): Promise<Found> {
  const templates = Array.isArray(vm.spec.dataVolumeTemplates) ? vm.spec.dataVolumeTemplates : [];
  const template = templates.find((t) => t?.metadata?.name === name);
  if (template) return fromDataVolumeSpec(l, namespace, template.spec as DataVolumeSpecLike, want);
  const dv = await l.dataVolume(namespace, name);
  // a garbage-collected DataVolume leaves its PVC under the same name
  if (!dv) return fromPVC(l, namespace, name, want);
  if (dv.labels?.[want.name] !== undefined) return fromLabels(dv.labels, want);
  return fromDataVolumeSpec(l, namespace, dv.spec, want);
}

/** The name and kind the labels of `volumeName`'s source give (throws an InferenceError). */
export async function inferFromVolume(vm: VirtualMachine, volumeName: string, want: Labels, l: VolumeSourceLookups): Promise<Found> {
  const namespace = vm.metadata?.namespace ?? 'default';
  const volumes = vm.spec.template?.spec?.volumes;
  const volume = (Array.isArray(volumes) ? volumes : []).find((v) => v?.name === volumeName);
  if (!volume) throw new InferenceError(`unable to find volume ${volumeName} to infer defaults`, false);
  if (volume.persistentVolumeClaim) return fromPVC(l, namespace, volume.persistentVolumeClaim.claimName, want);
  if (volume.dataVolume) return fromDataVolume(l, vm, namespace, volume.dataVolume.name, want);
  throw ignorable(`unable to infer defaults from volume ${volumeName} as type is not supported`);
}

const INSTANCETYPE_LABELS: Labels = { name: DEFAULT_INSTANCETYPE_LABEL, kind: DEFAULT_INSTANCETYPE_KIND_LABEL };
const PREFERENCE_LABELS: Labels = { name: DEFAULT_PREFERENCE_LABEL, kind: DEFAULT_PREFERENCE_KIND_LABEL };

/**
 * A copy of the VM with both matchers inferred (a matcher without `inferFromVolume` is left as it
 * is). Under `Ignore` an ignorable failure removes the matcher; a successful instance type
 * inference under `Ignore` drops the template's `domain.memory` (the fallback the user gave in case
 * nothing was found), as KubeVirt does. Throws the InferenceError that refuses the VM.
 */
export async function inferMatchers(input: VirtualMachine, l: VolumeSourceLookups): Promise<VirtualMachine> {
  const vm = structuredClone(input);
  const it = vm.spec.instancetype;
  if (it?.inferFromVolume) {
    const ignore = it.inferFromVolumeFailurePolicy === 'Ignore';
    try {
      vm.spec.instancetype = await inferFromVolume(vm, it.inferFromVolume, INSTANCETYPE_LABELS, l);
      if (ignore && vm.spec.template?.spec?.domain) delete vm.spec.template.spec.domain.memory;
    } catch (err) {
      if (!(err instanceof InferenceError && err.ignorable && ignore)) throw err;
      delete vm.spec.instancetype;
    }
  }
  const pref = vm.spec.preference;
  if (pref?.inferFromVolume) {
    try {
      vm.spec.preference = await inferFromVolume(vm, pref.inferFromVolume, PREFERENCE_LABELS, l);
    } catch (err) {
      if (!(err instanceof InferenceError && err.ignorable && pref.inferFromVolumeFailurePolicy === 'Ignore')) throw err;
      delete vm.spec.preference;
    }
  }
  return vm;
}
