/**
 * PURE: the StorageClasses `kv up` installs (local-path-provisioner is the model): `local`, the
 * default (ReadWriteOnce on one node's disk, bound when the first Pod is scheduled), and `shared`
 * (ReadWriteMany on storage every embedded node sees, so live migration copies no disk data).
 */
import type { V1StorageClass } from '@kubernetes/client-node';
import { PARAM_VOLUME_TYPE, PROVISIONER, StorageAnnotation } from './constants';

export type VolumeType = 'local' | 'shared';

export function volumeTypeOf(sc: V1StorageClass | undefined): VolumeType {
  return sc?.parameters?.[PARAM_VOLUME_TYPE] === 'shared' ? 'shared' : 'local';
}

export function defaultStorageClasses(): V1StorageClass[] {
  const sc = (name: string, type: VolumeType, mode: string, isDefault: boolean): V1StorageClass => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name, ...(isDefault ? { annotations: { [StorageAnnotation.DefaultClass]: 'true' } } : {}) },
    provisioner: PROVISIONER,
    parameters: { [PARAM_VOLUME_TYPE]: type },
    reclaimPolicy: 'Delete',
    volumeBindingMode: mode,
    allowVolumeExpansion: true,
  });
  return [sc('local', 'local', 'WaitForFirstConsumer', true), sc('shared', 'shared', 'Immediate', false)];
}
