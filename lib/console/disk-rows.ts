/**
 * PURE: the VM page's Disks table: one row per disk with its volume's source, and for claim-backed
 * volumes the claim, its StorageClass, capacity, access modes, and the DataVolume's state while it
 * fills (phase and progress) or why it failed; hot-plug state from the VMI's volumeStatus.
 */
import type { VirtualMachine, VirtualMachineInstance } from '../kubevirt';

export interface ClaimLike { metadata: { name?: string }; spec?: { storageClassName?: string; accessModes?: string[]; resources?: { requests?: Record<string, string> } }; status?: { phase?: string; capacity?: Record<string, string> } }
export interface DataVolumeLike { metadata: { name?: string }; status?: { phase?: string; progress?: string; conditions?: { type: string; message?: string }[] } }

export interface DiskRow {
  name: string;
  type: string;
  bus: string;
  source: string;
  claim?: string;
  storageClass?: string;
  capacity?: string;
  access?: string;
  /** a DataVolume still filling or failed, an unbound claim, a hot-plug in progress; undefined when ready */
  state?: string;
  failed?: boolean;
  hotplugged?: boolean;
}

const MODES: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };

export function diskRows(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, claims: ClaimLike[], dataVolumes: DataVolumeLike[]): DiskRow[] {
  // a running VM's VMI carries hot-plugged disks its template may not
  const spec = vmi?.spec ?? vm.spec.template.spec;
  const volumes = new Map((spec.volumes ?? []).map((v) => [v.name, v]));
  const claimByName = new Map(claims.map((c) => [c.metadata.name ?? '', c]));
  const dvByName = new Map(dataVolumes.map((d) => [d.metadata.name ?? '', d]));
  const hotplug = new Map((vmi?.status?.volumeStatus ?? []).filter((s) => s.hotplugVolume).map((s) => [s.name, s]));
  return (spec.domain.devices?.disks ?? []).map((d): DiskRow => {
    const v = volumes.get(d.name);
    const row: DiskRow = { name: d.name, type: d.cdrom ? 'cdrom' : d.lun ? 'lun' : 'disk', bus: d.disk?.bus ?? d.cdrom?.bus ?? d.lun?.bus ?? '—', source: '—' };
    if (!v) return row;
    if (v.containerDisk) return { ...row, source: `containerDisk ${v.containerDisk.image}` };
    if (v.cloudInitNoCloud) return { ...row, source: 'cloud-init (NoCloud)' };
    if (v.cloudInitConfigDrive) return { ...row, source: 'cloud-init (ConfigDrive)' };
    if (v.emptyDisk) return { ...row, source: `emptyDisk ${v.emptyDisk.capacity}` };
    const claimName = v.persistentVolumeClaim?.claimName ?? v.dataVolume?.name ?? v.ephemeral?.persistentVolumeClaim.claimName;
    if (!claimName) return { ...row, source: Object.keys(v).filter((k) => k !== 'name').join(', ') };
    const claim = claimByName.get(claimName);
    const dv = v.dataVolume ? dvByName.get(claimName) : undefined;
    const out: DiskRow = {
      ...row,
      source: v.dataVolume ? `DataVolume ${claimName}` : v.ephemeral ? `ephemeral PVC ${claimName}` : `PVC ${claimName}`,
      claim: claimName,
      storageClass: claim?.spec?.storageClassName,
      capacity: claim?.status?.capacity?.storage ?? claim?.spec?.resources?.requests?.storage,
      access: claim?.spec?.accessModes?.map((m) => MODES[m] ?? m).join(','),
      hotplugged: v.dataVolume?.hotpluggable === true || v.persistentVolumeClaim?.hotpluggable === true,
    };
    const dvPhase = dv?.status?.phase;
    if (dvPhase === 'Failed') return { ...out, state: `Failed: ${dv?.status?.conditions?.find((c) => c.type === 'Running')?.message ?? ''}`.trim(), failed: true };
    if (dvPhase && dvPhase !== 'Succeeded') return { ...out, state: dv?.status?.progress && dv.status.progress !== 'N/A' ? `${dvPhase} ${dv.status.progress}` : dvPhase };
    if (v.dataVolume && !dv && !claim) return { ...out, state: 'DataVolume not found', failed: true };
    if (!claim) return { ...out, state: 'claim not found', failed: true };
    if (claim.status?.phase && claim.status.phase !== 'Bound') return { ...out, state: `claim ${claim.status.phase}` };
    const hp = hotplug.get(d.name);
    if (hp && hp.phase !== 'Ready') return { ...out, state: `hot-plug ${hp.phase ?? 'Pending'}` };
    return out;
  });
}
