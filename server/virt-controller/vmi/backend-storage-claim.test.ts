import { describe, expect, it } from 'vitest';
import type { V1StorageClass } from '@kubernetes/client-node';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import { needsBackendStorage, renderBackendStorageClaim } from './backend-storage-claim';
import { claimVolumes, launcherClaimVolumes } from './claim-volumes';

const CLASSES: Record<string, V1StorageClass> = {
  local: { metadata: { name: 'local' }, provisioner: 'kubevirt-ts.io/local-path', parameters: { volumeType: 'local' } },
  shared: { metadata: { name: 'shared' }, provisioner: 'kubevirt-ts.io/local-path', parameters: { volumeType: 'shared' } },
};
const classOf = (n: string) => CLASSES[n];

function vmi(devices: object, firmware?: object, owned = true): VirtualMachineInstance {
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance',
    metadata: {
      name: 'win11', namespace: 'apps', uid: 'vmi-uid',
      ...(owned ? { ownerReferences: [{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name: 'win11', uid: 'vm-uid', controller: true, blockOwnerDeletion: true }] } : {}),
    },
    spec: { domain: { devices, ...(firmware ? { firmware } : {}) } },
  } as unknown as VirtualMachineInstance;
}

describe('backend storage claim (persistent TPM / EFI)', () => {
  it('only a persistent TPM or persistent EFI needs one', () => {
    expect(needsBackendStorage(vmi({ tpm: {} }))).toBe(false);
    expect(needsBackendStorage(vmi({ tpm: { persistent: true, enabled: false } }))).toBe(false);
    expect(needsBackendStorage(vmi({ tpm: { persistent: true } }))).toBe(true);
    expect(needsBackendStorage(vmi({}, { bootloader: { efi: { persistent: true } } }))).toBe(true);
  });

  it('is persistent-state-for-<vm>, 10Mi Filesystem, owned by the VM, in the default class (RWO) when the CR names none', () => {
    const pvc = renderBackendStorageClaim(vmi({ tpm: { persistent: true } }), undefined, classOf);
    expect(pvc.metadata).toMatchObject({ name: 'persistent-state-for-win11', namespace: 'apps', labels: { 'persistent-state-for': 'win11' } });
    expect(pvc.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'VirtualMachine', name: 'win11', uid: 'vm-uid' })]);
    expect(pvc.spec).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Mi' } }, volumeMode: 'Filesystem' });
  });

  it('vmStateStorageClass: ReadWriteMany on shared storage, ReadWriteOnce on one-node local storage', () => {
    expect(renderBackendStorageClaim(vmi({ tpm: { persistent: true } }), 'shared', classOf).spec).toMatchObject({ storageClassName: 'shared', accessModes: ['ReadWriteMany'] });
    expect(renderBackendStorageClaim(vmi({ tpm: { persistent: true } }), 'local', classOf).spec).toMatchObject({ storageClassName: 'local', accessModes: ['ReadWriteOnce'] });
  });

  it('a VMI no VM made owns its claim itself (the state goes with it)', () => {
    const pvc = renderBackendStorageClaim(vmi({ tpm: { persistent: true } }, undefined, false), undefined, classOf);
    expect(pvc.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'VirtualMachineInstance', name: 'win11', uid: 'vmi-uid', controller: true })]);
  });

  it('the launcher Pod mounts it as vm-state, and waits for it like any claim', () => {
    expect(claimVolumes(vmi({ tpm: {} }))).toEqual([]);
    expect(launcherClaimVolumes(vmi({ tpm: { persistent: true } }))).toEqual([{ name: 'vm-state', persistentVolumeClaim: { claimName: 'persistent-state-for-win11' } }]);
  });
});
