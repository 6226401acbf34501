/**
 * PURE: KubeVirt's volume hotplug requests (AddVolumeOptions / RemoveVolumeOptions, the bodies of
 * the addvolume and removevolume subresources): their checks, with KubeVirt's messages, and how a
 * request changes a VM or VMI spec. Shared by virt-api and the console.
 */
import type { Disk, Volume } from './vmi-spec-types';

export interface HotplugVolumeSource {
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean; hotpluggable?: boolean };
  dataVolume?: { name: string; hotpluggable?: boolean };
}

export interface AddVolumeOptions { name: string; disk: Omit<Disk, 'name'> & { name?: string }; volumeSource: HotplugVolumeSource; dryRun?: string[] }
export interface RemoveVolumeOptions { name: string; dryRun?: string[] }
export type VolumeRequest = { addVolumeOptions: AddVolumeOptions; removeVolumeOptions?: undefined } | { removeVolumeOptions: RemoveVolumeOptions; addVolumeOptions?: undefined };

interface SpecWithVolumes { volumes?: Volume[]; domain: { devices?: { disks?: Disk[] } } }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body of addvolume, checked as KubeVirt's handler does (its 400 messages). */
export function parseAddVolumeOptions(body: unknown): AddVolumeOptions | { error: string } {
  if (!isObject(body)) return { error: 'Request with no body, a new name is expected as the request body' };
  if (typeof body.name !== 'string' || body.name === '') return { error: 'AddVolumeOptions requires name to be set' };
  if (!isObject(body.disk)) return { error: 'AddVolumeOptions requires disk to not be nil' };
  if (!isObject(body.volumeSource)) return { error: 'AddVolumeOptions requires VolumeSource to not be nil' };
  const bus = (body.disk as { disk?: { bus?: string } }).disk?.bus;
  if (bus !== undefined && bus !== 'scsi') return { error: `hotplugged Disk ${body.name} does not use a scsi bus` };
  const src = body.volumeSource as HotplugVolumeSource;
  const claim = src.persistentVolumeClaim?.claimName;
  const dv = src.dataVolume?.name;
  if (!(typeof claim === 'string' && claim) && !(typeof dv === 'string' && dv)) return { error: 'AddVolumeOptions requires a persistentVolumeClaim or dataVolume volume source' };
  const volumeSource: HotplugVolumeSource = src.dataVolume
    ? { dataVolume: { name: src.dataVolume.name, hotpluggable: true } }
    : { persistentVolumeClaim: { ...src.persistentVolumeClaim!, hotpluggable: true } };
  return { name: body.name, disk: { ...(body.disk as unknown as Disk), name: body.name }, volumeSource, dryRun: Array.isArray(body.dryRun) ? body.dryRun as string[] : undefined };
}

export function parseRemoveVolumeOptions(body: unknown): RemoveVolumeOptions | { error: string } {
  if (!isObject(body)) return { error: 'Request with no body, a new name is expected as the request body' };
  if (typeof body.name !== 'string' || body.name === '') return { error: 'RemoveVolumeOptions requires name to be set' };
  return { name: body.name, dryRun: Array.isArray(body.dryRun) ? body.dryRun as string[] : undefined };
}

const sourceName = (s: HotplugVolumeSource) => s.dataVolume?.name ?? s.persistentVolumeClaim?.claimName ?? '';
const volumeSourceName = (v: Volume) => v.dataVolume?.name ?? v.persistentVolumeClaim?.claimName;
export const isHotpluggable = (v: Volume) => v.dataVolume?.hotpluggable === true || v.persistentVolumeClaim?.hotpluggable === true;

/** KubeVirt's verifyVolumeOption: a conflict message, or undefined when the request applies. */
export function verifyVolumeRequest(volumes: Volume[] | undefined, req: VolumeRequest): string | undefined {
  if (req.addVolumeOptions) {
    const add = req.addVolumeOptions;
    const src = sourceName(add.volumeSource);
    for (const v of volumes ?? []) {
      if (v.name === add.name) return `Unable to add volume [${add.name}] because volume with that name already exists`;
      if (volumeSourceName(v) === src) return `Unable to add volume source [${src}] because it already exists`;
    }
    return undefined;
  }
  const name = req.removeVolumeOptions.name;
  const found = (volumes ?? []).find((v) => v.name === name || volumeSourceName(v) === name);
  if (!found) return `Unable to remove volume [${name}] because it does not exist`;
  if (!isHotpluggable(found)) return `Unable to remove volume [${found.name}] because it is not hotpluggable`;
  return undefined;
}

/** The spec with the request applied (a hot-plugged disk defaults to the SCSI bus, as virtctl asks). */
export function applyVolumeRequest<T extends SpecWithVolumes>(spec: T, req: VolumeRequest): T {
  const volumes = [...(spec.volumes ?? [])];
  const disks = [...(spec.domain.devices?.disks ?? [])];
  if (req.addVolumeOptions) {
    const { name, disk, volumeSource } = req.addVolumeOptions;
    volumes.push({ name, ...volumeSource } as Volume);
    const target = disk.disk || disk.lun || disk.cdrom ? disk : { ...disk, disk: { bus: 'scsi' as const } };
    disks.push({ ...target, name } as Disk);
  } else {
    const name = req.removeVolumeOptions.name;
    const gone = volumes.find((v) => v.name === name || volumeSourceName(v) === name)?.name ?? name;
    return { ...spec, volumes: volumes.filter((v) => v.name !== gone), domain: { ...spec.domain, devices: { ...spec.domain.devices, disks: disks.filter((d) => d.name !== gone) } } };
  }
  return { ...spec, volumes, domain: { ...spec.domain, devices: { ...spec.domain.devices, disks } } };
}
