/**
 * PURE: a VirtualMachineRestore whose target VM does not exist makes a new VM (KubeVirt's restore
 * to a new VM): one new claim per backed-up volume, named `restore-<restore uid>-<volume>` and
 * filled from that volume's snapshot (dataSource VolumeSnapshot, which the provisioner honours),
 * and the saved VM with its volumes pointing at them. What would clash with the source VM is left
 * out: MAC addresses and the firmware UUID and serial, which a new VM gets fresh (KubeVirt asks for
 * such changes as `spec.patches`, applied here after that).
 */
import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { createHash } from 'node:crypto';
import jsonpatch, { type Operation } from 'fast-json-patch';
import type { VMRestore, VMSnapshotContent, VolumeBackup } from './snapshot-types';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const MAX_NAME = 63;

/** KubeVirt's naming for a too long `<a>-<b>`: cut, then a short hash of the whole so names stay distinct */
function joinedName(a: string, b: string): string {
  const name = `${a}-${b}`;
  if (name.length <= MAX_NAME) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_NAME - hash.length - 1).replace(/-+$/, '')}-${hash}`;
}

/**
 * The new claim of a backed-up volume: the override's `restoreName`, else by `volumeRestorePolicy`
 * (RandomizeNames, the default: `restore-<restore uid>-<volume>`; PrefixTargetName:
 * `<target VM>-<volume>`; InPlace: the source claim's own name).
 */
export function restoredClaimName(r: VMRestore, volume: string, sourceClaim?: string): string {
  const override = r.spec.volumeRestoreOverrides?.find((o) => o.volumeName === volume)?.restoreName;
  if (override) return override;
  if (r.spec.volumeRestorePolicy === 'PrefixTargetName') return joinedName(r.spec.target.name, volume);
  if (r.spec.volumeRestorePolicy === 'InPlace' && sourceClaim) return sourceClaim;
  return `restore-${r.metadata.uid}-${volume}`;
}

export function renderRestoredClaim(r: VMRestore, b: VolumeBackup): V1PersistentVolumeClaim {
  const saved = (b.persistentVolumeClaim.spec ?? {}) as V1PersistentVolumeClaim['spec'] & Obj;
  const override = r.spec.volumeRestoreOverrides?.find((o) => o.volumeName === b.volumeName);
  return {
    apiVersion: 'v1', kind: 'PersistentVolumeClaim',
    metadata: {
      name: restoredClaimName(r, b.volumeName, b.persistentVolumeClaim.metadata.name), namespace: r.metadata.namespace,
      labels: { ...override?.labels, 'restore.kubevirt.io/source-vm-name': r.spec.target.name },
      ...(override?.annotations ? { annotations: override.annotations } : {}),
    },
    spec: {
      accessModes: saved.accessModes, resources: saved.resources, storageClassName: saved.storageClassName, volumeMode: saved.volumeMode,
      dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: b.volumeSnapshotName },
    },
  };
}

function withoutClashes(template: Obj): Obj {
  const t = structuredClone(template);
  const spec = isObj(t.spec) ? t.spec : {};
  const domain = isObj(spec.domain) ? spec.domain : {};
  const firmware = isObj(domain.firmware) ? domain.firmware : undefined;
  if (firmware) { delete firmware.uuid; delete firmware.serial; }
  const devices = isObj(domain.devices) ? domain.devices : {};
  for (const i of Array.isArray(devices.interfaces) ? devices.interfaces : []) if (isObj(i)) delete i.macAddress;
  return t;
}

/** the new VM: the saved one under the target's name, its claim volumes on the restored claims */
export function renderRestoredVM(r: VMRestore, content: VMSnapshotContent): Obj {
  const source = content.spec.source.virtualMachine;
  const saved = structuredClone(source.spec) as Obj;
  const byVolume = new Map((content.spec.volumeBackups ?? []).map((b) => [b.volumeName, restoredClaimName(r, b.volumeName, b.persistentVolumeClaim.metadata.name)]));
  const template = withoutClashes(isObj(saved.template) ? saved.template : {});
  const tspec = isObj(template.spec) ? template.spec : {};
  tspec.volumes = (Array.isArray(tspec.volumes) ? tspec.volumes : []).map((v) => {
    if (!isObj(v) || typeof v.name !== 'string' || !byVolume.has(v.name)) return v;
    const readOnly = isObj(v.persistentVolumeClaim) ? v.persistentVolumeClaim.readOnly : undefined;
    return { name: v.name, persistentVolumeClaim: { claimName: byVolume.get(v.name), ...(readOnly !== undefined ? { readOnly } : {}) } };
  });
  delete saved.dataVolumeTemplates; // their data is in the restored claims
  const meta = source.metadata as { labels?: Record<string, string>; annotations?: Record<string, string> } | undefined;
  const vm: Obj = {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine',
    metadata: { name: r.spec.target.name, namespace: r.metadata.namespace, ...(meta?.labels ? { labels: meta.labels } : {}), ...(meta?.annotations ? { annotations: meta.annotations } : {}) },
    spec: { ...saved, template },
  };
  return applyRestorePatches(vm, r.spec.patches ?? []);
}

export class RestorePatchError extends Error {}

/** KubeVirt's `spec.patches`: JSON Patch operations, one JSON object per string, applied to the new VM */
export function applyRestorePatches(vm: Obj, patches: string[]): Obj {
  if (patches.length === 0) return vm;
  let ops: Operation[];
  try {
    ops = patches.map((p) => JSON.parse(p) as Operation);
  } catch (err) {
    throw new RestorePatchError(`spec.patches: not a JSON patch operation: ${(err as Error).message}`);
  }
  const problem = jsonpatch.validate(ops, vm);
  if (problem) throw new RestorePatchError(`spec.patches: ${problem.name}: ${problem.message.split('\n')[0]}`);
  return jsonpatch.applyPatch(vm, ops, false, false).newDocument as Obj;
}
