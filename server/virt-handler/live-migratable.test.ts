import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import { computeLiveMigratable, PERSISTENT_TPM_MESSAGE } from './live-migratable';

function vmi(accessModes: string[] | undefined, what: 'tpm' | 'efi' = 'tpm'): VirtualMachineInstance {
  return {
    metadata: { name: 'vm1', namespace: 'default' },
    spec: { domain: what === 'tpm' ? { devices: { tpm: { persistent: true } } } : { devices: {}, firmware: { bootloader: { efi: { persistent: true } } } } },
    status: accessModes ? { volumeStatus: [{ name: 'vm-state', target: '', persistentVolumeClaimInfo: { claimName: 'persistent-state-for-vm1', accessModes } }] } : {},
  } as unknown as VirtualMachineInstance;
}

describe('LiveMigratable with a persistent TPM / EFI (backend storage)', () => {
  it('is False with KubeVirt reason and message when the backend storage claim is not ReadWriteMany', () => {
    expect(computeLiveMigratable(vmi(['ReadWriteOnce']))).toEqual({ type: 'LiveMigratable', status: 'False', reason: 'DisksNotLiveMigratable', message: 'cannot migrate VMI: Backend storage PVC is not RWX' });
    expect(computeLiveMigratable(vmi(undefined)).status).toBe('False');
  });

  it('persistent EFI: True on ReadWriteMany backend storage (class shared)', () => {
    expect(computeLiveMigratable(vmi(['ReadWriteMany'], 'efi')).status).toBe('True');
    expect(computeLiveMigratable(vmi(['ReadWriteOnce'], 'efi')).message).toBe('cannot migrate VMI: Backend storage PVC is not RWX');
  });

  it('persistent TPM: False even on ReadWriteMany (swtpm 0.7.1 keeps its state dir locked), saying why', () => {
    expect(computeLiveMigratable(vmi(['ReadWriteMany']))).toEqual({ type: 'LiveMigratable', status: 'False', reason: 'DisksNotLiveMigratable', message: PERSISTENT_TPM_MESSAGE });
  });
});
