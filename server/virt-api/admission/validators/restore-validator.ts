/**
 * VirtualMachineRestore admission (KubeVirt's vmrestore admitter), with KubeVirt's messages:
 * the target must be a kubevirt.io VirtualMachine; the snapshot must exist and not have failed
 * (one not yet ready is allowed: the controller waits for it); a target that exists must be the
 * VM the snapshot was taken of; one restore at a time per target; the patches and the policies
 * checked; the spec never changes after creation. A running target is allowed: the restore
 * controller applies `targetReadinessPolicy`. The lookups are injected so the rules stay pure.
 */
import { CauseType, invalid, notSupported, required, type Cause } from '../cause';
import { isObject, objectAt, objectsAt, stringAt, type JsonObject } from '../json-shape';
import { canonical } from './vmi-validator';
import { validateRestorePatches } from './restore-patches';

/** What admission reads of a VirtualMachineSnapshot, a VirtualMachine and other restores. */
export interface RestoreLookups {
  getSnapshot(namespace: string, name: string): Promise<JsonObject | undefined>;
  getVM(namespace: string, name: string): Promise<JsonObject | undefined>;
  listRestores(namespace: string): Promise<JsonObject[]>;
}

export const TARGET_READINESS_POLICIES = ['StopTarget', 'WaitGracePeriod', 'FailImmediate', 'WaitEventually'] as const;
const VOLUME_RESTORE_POLICIES = ['InPlace', 'RandomizeNames', 'PrefixTargetName'];
const VOLUME_OWNERSHIP_POLICIES = ['Vm', 'None'];

const notFound = (field: string, message: string): Cause => ({ type: CauseType.FieldValueNotFound, field, message });

function checkTarget(target: JsonObject): Cause[] {
  if (target.apiGroup === undefined || target.apiGroup === null) return [notFound('spec.target.apiGroup', 'missing apiGroup')];
  if (target.apiGroup !== 'kubevirt.io') return [invalid('spec.target.apiGroup', 'invalid apiGroup')];
  if (target.kind !== 'VirtualMachine') return [invalid('spec.target.kind', 'invalid kind')];
  if (!stringAt(target.name)) return [invalid('spec.target.name', 'spec.target.name: Required value')];
  return [];
}

function checkPolicies(spec: JsonObject): Cause[] {
  const causes: Cause[] = [];
  const trp = spec.targetReadinessPolicy;
  if (trp !== undefined && !(TARGET_READINESS_POLICIES as readonly unknown[]).includes(trp)) {
    causes.push(notSupported('spec.targetReadinessPolicy', `spec.targetReadinessPolicy: Unsupported value: ${JSON.stringify(trp)}: supported values: ${TARGET_READINESS_POLICIES.map((p) => `"${p}"`).join(', ')}`));
  }
  if (spec.volumeRestorePolicy !== undefined && !VOLUME_RESTORE_POLICIES.includes(spec.volumeRestorePolicy as string)) {
    causes.push(invalid('spec.volumeRestorePolicy', `volume restore policy "${String(stringAt(spec.volumeRestorePolicy) ?? JSON.stringify(spec.volumeRestorePolicy))}" doesn't exist`));
  }
  if (spec.volumeOwnershipPolicy !== undefined && !VOLUME_OWNERSHIP_POLICIES.includes(spec.volumeOwnershipPolicy as string)) {
    causes.push(invalid('spec.volumeOwnershipPolicy', `volume ownership policy "${String(stringAt(spec.volumeOwnershipPolicy) ?? JSON.stringify(spec.volumeOwnershipPolicy))}" doesn't exist`));
  }
  objectsAt(spec.volumeRestoreOverrides).forEach(([o, i]) => {
    const field = `spec.volumeRestoreOverrides[${i}]`;
    if (!stringAt(o.volumeName)) causes.push(required(`${field}.volumeName`, 'must provide a volume name'));
    if (!o.restoreName && o.labels === undefined && o.annotations === undefined) causes.push(required(field, 'must provide at least one overriden field'));
  });
  return causes;
}

/** the snapshot named, and whether the existing target is the VM it was taken of */
async function checkSnapshot(ns: string, spec: JsonObject, target: JsonObject, lookups: RestoreLookups): Promise<Cause[]> {
  const field = 'spec.virtualMachineSnapshotName';
  const name = stringAt(spec.virtualMachineSnapshotName);
  if (!name) return [invalid(field, 'spec.virtualMachineSnapshotName: Required value')];
  const snapshot = await lookups.getSnapshot(ns, name);
  if (!snapshot) return [invalid(field, `VirtualMachineSnapshot "${name}" does not exist`)];
  const source = objectAt(objectAt(snapshot.spec).source);
  if (source.kind !== 'VirtualMachine' || (source.apiGroup !== undefined && source.apiGroup !== 'kubevirt.io')) {
    return [invalid(field, `VirtualMachineSnapshot "${name}" is not of a kubevirt.io VirtualMachine and cannot be restored into one`)];
  }
  const status = objectAt(snapshot.status);
  if (status.phase === 'Failed') return [invalid(field, `VirtualMachineSnapshot "${name}" has failed and is invalid to use`)];
  const vm = await lookups.getVM(ns, target.name as string);
  const sourceUID = stringAt(status.sourceUID);
  const targetUID = stringAt(objectAt(vm?.metadata).uid);
  if (vm && sourceUID && targetUID !== sourceUID) {
    return [invalid(field, 'when snapshot source and restore target VMs are different - target VM must not exist')];
  }
  return [];
}

async function checkInFlight(ns: string, target: JsonObject, lookups: RestoreLookups): Promise<Cause[]> {
  const want = JSON.stringify(canonical(target));
  return (await lookups.listRestores(ns))
    .filter((r) => JSON.stringify(canonical(objectAt(r.spec).target)) === want && objectAt(r.status).complete !== true)
    .map((r) => invalid('spec.target', `VirtualMachineRestore "${String(objectAt(r.metadata).name)}" in progress`));
}

export async function validateRestoreCreate(restore: unknown, lookups: RestoreLookups | undefined): Promise<Cause[]> {
  if (!isObject(restore)) return [invalid('', 'object in body must be of type object')];
  if (!isObject(restore.spec)) return [invalid('spec', 'spec: Required value')];
  const spec = restore.spec;
  const ns = stringAt(objectAt(restore.metadata).namespace) ?? 'default';
  const target = objectAt(spec.target);
  const targetCauses = checkTarget(target);
  const causes = [...targetCauses, ...validateRestorePatches(spec.patches), ...checkPolicies(spec)];
  if (!lookups) return causes;
  if (targetCauses.length === 0) causes.push(...(await checkSnapshot(ns, spec, target, lookups)));
  causes.push(...(await checkInFlight(ns, target, lookups)));
  return causes;
}

export function validateRestoreUpdate(restore: unknown, old: unknown): Cause[] {
  if (!isObject(restore) || !isObject(old)) return [invalid('', 'object in body must be of type object')];
  if (JSON.stringify(canonical(restore.spec)) !== JSON.stringify(canonical(old.spec))) return [invalid('spec', 'spec in immutable after creation')];
  return [];
}
