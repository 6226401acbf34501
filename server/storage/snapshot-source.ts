/**
 * A claim whose `dataSource` is a VolumeSnapshot (`snapshot.storage.k8s.io`), as KubeVirt's restore
 * writes them: the provisioner fills the new volume from that snapshot's copy. Our VolumeSnapshots
 * are the volumes of a VirtualMachineSnapshotContent (status.volumeSnapshotStatus, spec.volumeBackups),
 * looked up in the claim's own namespace only, so a claim can restore nothing its namespace does not hold.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { CustomObjectsApi, V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { dataPaths } from '../data-dir';
import { copyDiskFile } from '../disk-copy';
export const VOLUME_SNAPSHOT_GROUP = 'snapshot.storage.k8s.io';

interface ContentList { items?: { metadata?: { name?: string }; spec?: { volumeBackups?: { volumeName: string; volumeSnapshotName?: string }[] } }[] }

/** the VolumeSnapshot a claim is to be filled from, or undefined */
export function snapshotSourceOf(pvc: V1PersistentVolumeClaim): string | undefined {
  const ds = pvc.spec?.dataSourceRef ?? pvc.spec?.dataSource;
  return ds?.kind === 'VolumeSnapshot' && ds.apiGroup === VOLUME_SNAPSHOT_GROUP ? ds.name : undefined;
}

/** the copy behind a VolumeSnapshot name in a namespace, or an error message */
export async function findSnapshotCopy(custom: CustomObjectsApi, dataDir: string, namespace: string, snapshot: string): Promise<{ file: string } | { error: string }> {
  const list = (await custom.listNamespacedCustomObject({ group: 'snapshot.kubevirt.io', version: 'v1beta1', namespace, plural: 'virtualmachinesnapshotcontents' })) as ContentList;
  for (const c of list.items ?? []) {
    const b = c.spec?.volumeBackups?.find((x) => x.volumeSnapshotName === snapshot);
    if (!b || !c.metadata?.name) continue;
    const file = join(dataPaths(dataDir).snapshotContent(namespace, c.metadata.name), `${b.volumeName}.img`);
    try {
      await access(file);
      return { file };
    } catch {
      return { error: `the copy of volumesnapshot "${snapshot}" is missing` };
    }
  }
  return { error: `volumesnapshot "${snapshot}" not found in namespace "${namespace}"` };
}

/** writes the copy into a new volume: disk.img in a Filesystem volume's directory, or the Block file */
export async function fillFromSnapshot(copy: string, volumePath: string, block: boolean): Promise<void> {
  const target = block ? volumePath : join(volumePath, 'disk.img');
  await copyDiskFile(copy, target, { inPlace: block, what: 'restoring from the snapshot' });
}
