/**
 * PURE: the backend storage claim virt-controller creates for a VMI with a persistent TPM or
 * persistent EFI variables (KubeVirt's pkg/storage/backend-storage): `persistent-state-for-<vmi>`,
 * 10Mi, Filesystem, owned by the VMI's VM (so it outlives restarts and goes with the VM), or by the
 * VMI itself when no VM made it (then it goes with the VMI: nothing persists past it, as in KubeVirt).
 * Class: the KubeVirt CR's vmStateStorageClass, else the default class (the API server fills it in).
 * Access mode as KubeVirt picks it without a CDI StorageProfile: ReadWriteMany for a named class,
 * ReadWriteOnce for the default one — except our `local` volume type, which can only be ReadWriteOnce.
 */
import type { V1PersistentVolumeClaim, V1StorageClass } from '@kubernetes/client-node';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import { BACKEND_STORAGE_LABEL, BACKEND_STORAGE_SIZE, backendStorageClaimName, usesPersistentState } from '../../../lib/kubevirt/backend-storage';

/** kubevirt-ts's local-path provisioner's one-node volumes (server/storage: parameter volumeType=local) — a StorageProfile would list ReadWriteOnce only */
function onlyReadWriteOnce(sc: V1StorageClass | undefined): boolean {
  return sc?.provisioner === 'kubevirt-ts.io/local-path' && sc.parameters?.volumeType !== 'shared';
}

export function needsBackendStorage(vmi: VirtualMachineInstance): boolean {
  return usesPersistentState(vmi.spec);
}

export function renderBackendStorageClaim(vmi: VirtualMachineInstance, vmStateStorageClass: string | undefined, classOf: (name: string) => V1StorageClass | undefined): V1PersistentVolumeClaim {
  const name = vmi.metadata.name ?? '';
  const owners = vmi.metadata.ownerReferences?.filter((o) => o.kind === 'VirtualMachine') ?? [];
  const ownerReferences = owners.length ? owners : [{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', name, uid: vmi.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }];
  const rwx = Boolean(vmStateStorageClass) && !onlyReadWriteOnce(classOf(vmStateStorageClass!));
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: backendStorageClaimName(name), namespace: vmi.metadata.namespace ?? 'default', labels: { [BACKEND_STORAGE_LABEL]: name }, ownerReferences },
    spec: {
      accessModes: [rwx ? 'ReadWriteMany' : 'ReadWriteOnce'],
      resources: { requests: { storage: BACKEND_STORAGE_SIZE } },
      volumeMode: 'Filesystem',
      ...(vmStateStorageClass ? { storageClassName: vmStateStorageClass } : {}),
    },
  };
}
