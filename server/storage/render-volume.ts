/** PURE: the PersistentVolume the local provisioner creates for a claim. */
import type { V1PersistentVolume, V1PersistentVolumeClaim, V1StorageClass } from '@kubernetes/client-node';
import { LABEL_HOSTNAME, PROVISIONER, StorageAnnotation } from './constants';
import { volumeTypeOf } from './storage-classes';
import { volumePath } from './volume-paths';

/** kube names dynamically provisioned volumes `pvc-<claim UID>` */
export const provisionedVolumeName = (pvc: V1PersistentVolumeClaim): string => `pvc-${pvc.metadata?.uid ?? ''}`;

export function renderVolume(pvc: V1PersistentVolumeClaim, sc: V1StorageClass, node: string | undefined, dataDir: string): V1PersistentVolume {
  const name = provisionedVolumeName(pvc);
  const type = volumeTypeOf(sc);
  const block = pvc.spec?.volumeMode === 'Block';
  const path = volumePath(dataDir, type, node, name, block);
  const spec: V1PersistentVolume['spec'] = {
    capacity: { storage: pvc.spec?.resources?.requests?.storage ?? '0' },
    accessModes: pvc.spec?.accessModes,
    persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
    storageClassName: sc.metadata?.name,
    volumeMode: block ? 'Block' : 'Filesystem',
    claimRef: {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: pvc.metadata?.namespace, name: pvc.metadata?.name,
      uid: pvc.metadata?.uid, resourceVersion: pvc.metadata?.resourceVersion,
    },
  };
  if (type === 'shared') spec.hostPath = { path, type: block ? 'FileOrCreate' : 'DirectoryOrCreate' };
  else {
    spec.local = { path };
    spec.nodeAffinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: LABEL_HOSTNAME, operator: 'In', values: [node ?? ''] }] }] } };
  }
  if (sc.mountOptions) spec.mountOptions = sc.mountOptions;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, annotations: { [StorageAnnotation.ProvisionedBy]: PROVISIONER } },
    spec,
  };
}

/** The host path behind a volume the kubelet can use directly (local or hostPath sources). */
export function hostPathOf(pv: V1PersistentVolume): string | undefined {
  return pv.spec?.local?.path ?? pv.spec?.hostPath?.path;
}

/** The node a volume is pinned to by its node affinity (`kubernetes.io/hostname In [node]`). */
export function volumeNodes(pv: V1PersistentVolume): string[] | undefined {
  const terms = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms?.length) return undefined;
  const nodes = terms.flatMap((t) => (t.matchExpressions ?? []).filter((e) => e.key === LABEL_HOSTNAME && e.operator === 'In').flatMap((e) => e.values ?? []));
  return nodes;
}
