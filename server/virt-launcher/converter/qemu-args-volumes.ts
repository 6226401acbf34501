/** Volume sources → the file QEMU opens (and the files the launcher must create first). */
import { join } from 'node:path';
import type { ClaimMount, ConverterInput, FileToCreate } from './converter-types';
import type { Volume } from '../vmi-types';
import { CONVERTER_REASONS, ConverterError, invalid } from './converter-error';
import { parseBytes } from './quantity';
import { imageFile, resolveInside } from '../store-paths';

export const DISKS_DIR = 'disks';

export interface VolumeSource {
  path: string;
  format: 'qcow2' | 'raw';
  /** the source can only be attached read-only (generated cloud-init media). */
  readOnly: boolean;
  files: FileToCreate[];
  /** on storage every node sees (a ReadWriteMany claim): left in place by a migration */
  shared?: boolean;
}

function overlayPath(input: ConverterInput, volName: string): string {
  return join(input.podDir, DISKS_DIR, `${volName}.qcow2`);
}

function containerDisk(input: ConverterInput, vol: Volume): VolumeSource | undefined {
  const ref = vol.containerDisk!.image;
  const field = `spec.volumes[${vol.name}].containerDisk`;
  if (typeof ref !== 'string' || ref === '') throw invalid(`${field}.image: required`);
  const entry = input.image(ref);
  if (!entry) throw new ConverterError(CONVERTER_REASONS.imageNotFound, `${field}.image: image ${JSON.stringify(ref)} not found in the node's image store`);
  const diskPath = vol.containerDisk!.path ?? entry.disk;
  if (!diskPath) {
    if (entry.kernel) return undefined; // kernel-only image (booted directly, see firmware)
    throw invalid(`${field}: image ${JSON.stringify(ref)} has no disk`);
  }
  const backing = imageFile(entry, diskPath, `${field}.path`);
  const path = overlayPath(input, vol.name);
  const backingFormat = entry.format === 'qcow2' ? 'qcow2' : 'raw';
  return { path, format: 'qcow2', readOnly: false, files: [{ kind: 'overlay', path, backing, backingFormat }] };
}

/** KubeVirt's disk image inside a Filesystem claim */
export const PVC_DISK_IMAGE = 'disk.img';

function claimOf(input: ConverterInput, vol: Volume, claimName: string | undefined, field: string): ClaimMount {
  const claim = input.claim?.(vol.name);
  if (!claim) throw new ConverterError(CONVERTER_REASONS.pvcNotFound, `spec.volumes[${vol.name}].${field}: PVC ${JSON.stringify(claimName ?? '')} not found`);
  return claim;
}

function ephemeral(input: ConverterInput, vol: Volume): VolumeSource {
  const claim = claimOf(input, vol, vol.ephemeral?.persistentVolumeClaim?.claimName, 'ephemeral');
  const path = overlayPath(input, vol.name);
  const backing = claim.block ? claim.path : join(claim.path, PVC_DISK_IMAGE);
  return { path, format: 'qcow2', readOnly: false, files: [{ kind: 'overlay', path, backing, backingFormat: 'raw' }] };
}

/**
 * A persistentVolumeClaim or dataVolume volume, used in place: the Block device, or disk.img on a
 * Filesystem claim, made sparse at the claim's capacity when missing (as KubeVirt does).
 */
function persistentClaim(input: ConverterInput, vol: Volume): VolumeSource {
  const field = vol.dataVolume ? 'dataVolume' : 'persistentVolumeClaim';
  const claimName = vol.dataVolume?.name ?? vol.persistentVolumeClaim?.claimName;
  const claim = claimOf(input, vol, claimName, field);
  const readOnly = vol.persistentVolumeClaim?.readOnly === true;
  const shared = claim.shared === true;
  if (claim.block) return { path: claim.path, format: 'raw', readOnly, shared, files: [{ kind: 'mustExist', path: claim.path, what: `spec.volumes[${vol.name}].${field}` }] };
  const path = join(claim.path, PVC_DISK_IMAGE);
  const files: FileToCreate[] = claim.capacityBytes && !readOnly
    ? [{ kind: 'rawDisk', path, sizeBytes: claim.capacityBytes }]
    : [{ kind: 'mustExist', path, what: `spec.volumes[${vol.name}].${field}` }];
  return { path, format: 'raw', readOnly, shared, files };
}

function emptyDisk(input: ConverterInput, vol: Volume): VolumeSource {
  const sizeBytes = parseBytes(vol.emptyDisk!.capacity, `spec.volumes[${vol.name}].emptyDisk.capacity`);
  if (sizeBytes < 512) throw invalid(`spec.volumes[${vol.name}].emptyDisk.capacity: too small`);
  const path = overlayPath(input, vol.name);
  return { path, format: 'qcow2', readOnly: false, files: [{ kind: 'emptyDisk', path, sizeBytes }] };
}

/** A file on the node (feature gate HostDisk): used in place, raw; DiskOrCreate makes it sparse at `capacity`. */
function hostDisk(vol: Volume): VolumeSource {
  const { path, type, capacity } = vol.hostDisk!;
  const field = `spec.volumes[${vol.name}].hostDisk`;
  if (typeof path !== 'string' || !path.startsWith('/')) throw invalid(`${field}.path: must be an absolute path`);
  if (type === 'DiskOrCreate') {
    if (capacity === undefined) throw invalid(`${field}.capacity: required for type DiskOrCreate`);
    const sizeBytes = parseBytes(capacity, `${field}.capacity`);
    return { path, format: 'raw', readOnly: false, files: [{ kind: 'rawDisk', path, sizeBytes }] };
  }
  return { path, format: 'raw', readOnly: false, files: [{ kind: 'mustExist', path, what: field }] };
}

/** cloud-init and config volumes: the ISO the launcher wrote for them */
function isoMedia(input: ConverterInput, vol: Volume): VolumeSource {
  const media = input.cloudInitMedia[vol.name];
  if (!media) throw invalid(`spec.volumes[${vol.name}]: its ISO media was not generated`);
  return { path: resolveInside(input.podDir, media, `spec.volumes[${vol.name}]`), format: 'raw', readOnly: true, files: [] };
}

/** The file behind a volume; undefined when the volume has nothing to attach (kernel-only image). */
export function resolveVolumeSource(input: ConverterInput, vol: Volume): VolumeSource | undefined {
  if (vol.containerDisk) return containerDisk(input, vol);
  if (vol.emptyDisk) return emptyDisk(input, vol);
  if (vol.ephemeral) return ephemeral(input, vol);
  if (vol.hostDisk) return hostDisk(vol);
  if (vol.persistentVolumeClaim || vol.dataVolume) return persistentClaim(input, vol);
  if (vol.cloudInitNoCloud || vol.cloudInitConfigDrive || vol.configMap || vol.secret || vol.serviceAccount || vol.downwardAPI) return isoMedia(input, vol);
  const kind = Object.keys(vol).find((k) => k !== 'name') ?? 'none';
  throw new ConverterError(CONVERTER_REASONS.unsupported, `spec.volumes[${vol.name}]: volume type ${JSON.stringify(kind)} is not supported by this launcher`);
}
