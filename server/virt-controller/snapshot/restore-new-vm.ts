/**
 * PURE: a VirtualMachineRestore whose target VM does not exist makes a new VM (KubeVirt's restore
 * to a new VM): one new claim per backed-up volume, named `restore-<restore uid>-<volume>` and
 * filled from that volume's snapshot (dataSource VolumeSnapshot, which the provisioner honours),
 * and the saved VM with its volumes pointing at them. What would clash with the source VM is left
 * out: MAC addresses and the firmware UUID and serial, which a new VM gets fresh (KubeVirt asks for
 * such changes as `spec.patches`).
 */
import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import type { VMRestore, VMSnapshotContent, VolumeBackup } from './snapshot-types';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const restoredClaimName = (r: VMRestore, volume: string) => `restore-${r.metadata.uid}-${volume}`;

export function renderRestoredClaim(r: VMRestore, b: VolumeBackup): V1PersistentVolumeClaim {
  const saved = (b.persistentVolumeClaim.spec ?? {}) as V1PersistentVolumeClaim['spec'] & Obj;
  return {
    apiVersion: 'v1', kind: 'PersistentVolumeClaim',
    metadata: { name: restoredClaimName(r, b.volumeName), namespace: r.metadata.namespace, labels: { 'restore.kubevirt.io/source-vm-name': r.spec.target.name } },
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
  const byVolume = new Map((content.spec.volumeBackups ?? []).map((b) => [b.volumeName, restoredClaimName(r, b.volumeName)]));
  const template = withoutClashes(isObj(saved.template) ? saved.template : {});
  const tspec = isObj(template.spec) ? template.spec : {};
  tspec.volumes = (Array.isArray(tspec.volumes) ? tspec.volumes : []).map((v) => {
    if (!isObj(v) || typeof v.name !== 'string' || !byVolume.has(v.name)) return v;
    const readOnly = isObj(v.persistentVolumeClaim) ? v.persistentVolumeClaim.readOnly : undefined;
    return { name: v.name, persistentVolumeClaim: { claimName: byVolume.get(v.name), ...(readOnly !== undefined ? { readOnly } : {}) } };
  });
  delete saved.dataVolumeTemplates; // their data is in the restored claims
  const labels = (source.metadata as { labels?: Record<string, string> } | undefined)?.labels;
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine',
    metadata: { name: r.spec.target.name, namespace: r.metadata.namespace, ...(labels ? { labels } : {}) },
    spec: { ...saved, template },
  };
}
