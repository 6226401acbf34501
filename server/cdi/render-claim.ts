/**
 * PURE: the PersistentVolumeClaim a DataVolume owns (CDI's renderPvc): its `pvc` spec as given, or
 * its `storage` spec completed from the class (access mode by the class's volume type, as a CDI
 * StorageProfile would), named as the DataVolume, owned by it.
 */
import type { V1PersistentVolumeClaim, V1StorageClass } from '@kubernetes/client-node';
import { CDI_APP_LABEL, CDI_GROUP, CDI_VERSION, type DataVolume } from './datavolume-types';

export function accessModesForClass(sc: V1StorageClass | undefined): string[] {
  return sc?.parameters?.volumeType === 'shared' ? ['ReadWriteMany'] : ['ReadWriteOnce'];
}

export function renderClaim(dv: DataVolume, classOf: (name: string | undefined) => V1StorageClass | undefined): V1PersistentVolumeClaim {
  const given = dv.spec.pvc ?? dv.spec.storage ?? {};
  const sc = classOf(given.storageClassName);
  const spec = {
    ...given,
    accessModes: given.accessModes?.length ? given.accessModes : accessModesForClass(sc),
    volumeMode: given.volumeMode ?? 'Filesystem',
    resources: given.resources ?? { requests: {} },
  };
  if (!spec.storageClassName && sc?.metadata?.name) spec.storageClassName = sc.metadata.name;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: dv.metadata.name,
      namespace: dv.metadata.namespace,
      labels: { app: CDI_APP_LABEL, 'app.kubernetes.io/component': 'storage', 'app.kubernetes.io/managed-by': 'cdi-controller' },
      annotations: { 'cdi.kubevirt.io/storage.contentType': dv.spec.contentType ?? 'kubevirt' },
      ownerReferences: [{ apiVersion: `${CDI_GROUP}/${CDI_VERSION}`, kind: 'DataVolume', name: dv.metadata.name ?? '', uid: dv.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec: spec as V1PersistentVolumeClaim['spec'],
  };
}

/** The size a DataVolume asks for; CDI refuses a DataVolume without one. */
export function requestedStorage(dv: DataVolume): string | undefined {
  return (dv.spec.pvc ?? dv.spec.storage)?.resources?.requests?.storage;
}
