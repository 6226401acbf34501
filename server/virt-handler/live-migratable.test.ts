import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import { computeLiveMigratable } from './live-migratable';

function vmi(accessModes: string[] | undefined): VirtualMachineInstance {
  return {
    metadata: { name: 'vm1', namespace: 'default' },
    spec: { domain: { devices: { tpm: { persistent: true } } } },
    status: accessModes ? { volumeStatus: [{ name: 'vm-state', target: '', persistentVolumeClaimInfo: { claimName: 'persistent-state-for-vm1', accessModes } }] } : {},
  } as unknown as VirtualMachineInstance;
}

describe('LiveMigratable with a persistent TPM / EFI (backend storage)', () => {
  it('is False with KubeVirt reason and message when the backend storage claim is not ReadWriteMany', () => {
    expect(computeLiveMigratable(vmi(['ReadWriteOnce']))).toEqual({ type: 'LiveMigratable', status: 'False', reason: 'DisksNotLiveMigratable', message: 'cannot migrate VMI: Backend storage PVC is not RWX' });
    expect(computeLiveMigratable(vmi(undefined)).status).toBe('False');
  });

  it('is True on ReadWriteMany backend storage (class shared)', () => {
    expect(computeLiveMigratable(vmi(['ReadWriteMany'])).status).toBe('True');
  });
});
