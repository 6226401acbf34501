/**
 * Where provisioned volumes live on this machine: one directory per PersistentVolume, under the
 * node's own dir for `local` volumes and under a dir every node sees for `shared` ones. Block-mode
 * volumes are a sparse file of the claim's size standing in for the device.
 */
import { join } from 'node:path';
import type { VolumeType } from './storage-classes';

export function storageRoot(dataDir: string): string {
  return join(dataDir, 'storage');
}

export function volumePath(dataDir: string, type: VolumeType, node: string | undefined, pvName: string, block: boolean): string {
  const dir = type === 'shared' ? join(storageRoot(dataDir), 'shared') : join(storageRoot(dataDir), 'nodes', node ?? 'unknown');
  return join(dir, block ? `${pvName}.img` : pvName);
}
