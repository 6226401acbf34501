/**
 * PURE: the Storage page. One row per PersistentVolumeClaim with what a user asks of it — is it
 * bound, how big, which class and access, is a DataVolume still filling it (or why it failed), which
 * VMs use it — and one row per StorageClass and per VM snapshot.
 */
import type { VirtualMachine } from '../kubevirt';
import type { ClaimLike, DataVolumeLike } from './disk-rows';

const MODES: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };

type Meta = { name?: string; namespace?: string; uid?: string; creationTimestamp?: string; deletionTimestamp?: string; annotations?: Record<string, string> };
export type StorageClaim = ClaimLike & { metadata: Meta; spec?: ClaimLike['spec'] & { volumeMode?: string; volumeName?: string } };
export type StorageDataVolume = DataVolumeLike & { metadata: Meta };
export interface StorageClassLike { metadata: Meta; provisioner?: string; reclaimPolicy?: string; volumeBindingMode?: string; allowVolumeExpansion?: boolean }
export interface SnapshotLike { metadata: Meta; spec?: { source?: { kind?: string; name?: string } }; status?: { phase?: string; readyToUse?: boolean; indications?: string[]; error?: { message?: string } } }

export interface ClaimRow {
  key: string;
  namespace: string;
  name: string;
  status: string;
  failed: boolean;
  capacity: string;
  access: string;
  storageClass: string;
  volumeMode: string;
  usedBy: string[];
  created?: string;
}

/** the VMs whose template names the claim (persistentVolumeClaim, dataVolume or ephemeral) or whose dataVolumeTemplates make it */
function usersOf(vms: VirtualMachine[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (key: string, vm: string) => out.set(key, [...new Set([...(out.get(key) ?? []), vm])]);
  for (const vm of vms) {
    const ns = vm.metadata.namespace ?? 'default';
    const name = vm.metadata.name ?? '';
    for (const v of vm.spec.template.spec.volumes ?? []) {
      const claim = v.persistentVolumeClaim?.claimName ?? v.dataVolume?.name ?? v.ephemeral?.persistentVolumeClaim.claimName;
      if (claim) add(`${ns}/${claim}`, name);
    }
    for (const t of vm.spec.dataVolumeTemplates ?? []) if (t.metadata?.name) add(`${ns}/${t.metadata.name}`, name);
  }
  return out;
}

function statusOf(c: StorageClaim, dv: StorageDataVolume | undefined): { status: string; failed: boolean } {
  if (c.metadata.deletionTimestamp) return { status: 'Terminating', failed: false };
  const phase = dv?.status?.phase;
  if (phase === 'Failed') return { status: `Failed: ${dv?.status?.conditions?.find((x) => x.type === 'Running')?.message ?? ''}`.trim(), failed: true };
  if (phase && phase !== 'Succeeded') return { status: dv?.status?.progress && dv.status.progress !== 'N/A' ? `${phase} ${dv.status.progress}` : phase, failed: false };
  return { status: c.status?.phase ?? 'Pending', failed: c.status?.phase === 'Lost' };
}

export function claimRows(claims: StorageClaim[], dataVolumes: StorageDataVolume[], vms: VirtualMachine[]): ClaimRow[] {
  const dvs = new Map(dataVolumes.map((d) => [`${d.metadata.namespace}/${d.metadata.name}`, d]));
  const users = usersOf(vms);
  return claims.map((c) => {
    const key = `${c.metadata.namespace}/${c.metadata.name}`;
    return {
      key,
      namespace: c.metadata.namespace ?? '',
      name: c.metadata.name ?? '',
      ...statusOf(c, dvs.get(key)),
      capacity: c.status?.capacity?.storage ?? c.spec?.resources?.requests?.storage ?? '—',
      access: (c.spec?.accessModes ?? []).map((m) => MODES[m] ?? m).join(',') || '—',
      storageClass: c.spec?.storageClassName ?? '—',
      volumeMode: c.spec?.volumeMode ?? 'Filesystem',
      usedBy: users.get(key) ?? [],
      created: c.metadata.creationTimestamp,
    };
  }).sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
}

const DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';

export interface ClassRow { name: string; isDefault: boolean; provisioner: string; binding: string; reclaim: string; expansion: boolean; claims: number }

export function classRows(classes: StorageClassLike[], claims: StorageClaim[]): ClassRow[] {
  return classes.map((sc) => ({
    name: sc.metadata.name ?? '',
    isDefault: sc.metadata.annotations?.[DEFAULT_CLASS] === 'true',
    provisioner: sc.provisioner ?? '—',
    binding: sc.volumeBindingMode ?? 'Immediate',
    reclaim: sc.reclaimPolicy ?? 'Delete',
    expansion: sc.allowVolumeExpansion === true,
    claims: claims.filter((c) => c.spec?.storageClassName === sc.metadata.name).length,
  })).sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name));
}

export interface SnapshotRow { key: string; namespace: string; name: string; vm: string; phase: string; ready: boolean; kind: string; error?: string; created?: string }

export function snapshotRows(snaps: SnapshotLike[]): SnapshotRow[] {
  return snaps.map((s) => ({
    key: `${s.metadata.namespace}/${s.metadata.name}`,
    namespace: s.metadata.namespace ?? '',
    name: s.metadata.name ?? '',
    vm: s.spec?.source?.name ?? '—',
    phase: s.status?.phase ?? 'Pending',
    ready: s.status?.readyToUse === true,
    kind: s.status?.indications?.includes('GuestAgent') ? 'online, filesystems frozen' : s.status?.indications?.includes('Online') ? 'online, crash-consistent' : 'offline',
    error: s.status?.error?.message,
    created: s.metadata.creationTimestamp,
  })).sort((a, b) => (b.created ?? '').localeCompare(a.created ?? ''));
}
