/**
 * devices.tpm: an emulated TPM 2.0. swtpm (started by the launcher before QEMU) serves it on a unix
 * socket in the Pod's dir; QEMU's `emulator` TPM backend talks to it; the guest sees tpm-crb on q35
 * and tpm-tis on i440fx, as libvirt picks for KubeVirt. The state directory is in the Pod's dir, or in
 * the VM's backend storage claim when `persistent: true` (it survives a restart there).
 */
import { join } from 'node:path';
import type { ConverterInput } from './converter-types';
import { CONVERTER_REASONS, ConverterError } from './converter-error';
import { escapeOptValue, renderJson } from './qemu-opts';
import { BACKEND_STORAGE_VOLUME, BACKEND_TPM_DIR, backendStorageClaimName, hasPersistentTPM, hasTPM } from '../../../lib/kubevirt/backend-storage';

export const SWTPM_SOCKET = 'swtpm.sock';
export const SWTPM_STATE_DIR = 'swtpm-state';

/** What the launcher starts swtpm with. */
export interface TPMPlan { socket: string; stateDir: string; persistent: boolean }

/** The backend storage claim's directory in the Pod; FailedPvcNotFound when the Pod has none. */
export function backendStorageDir(input: ConverterInput, field: string): string {
  const mount = input.claim?.(BACKEND_STORAGE_VOLUME);
  const claimName = backendStorageClaimName(input.vmi.metadata.name ?? '');
  if (!mount) throw new ConverterError(CONVERTER_REASONS.pvcNotFound, `${field}: backend storage PVC ${claimName} is not mounted in the launcher Pod`);
  if (mount.block) throw new ConverterError(CONVERTER_REASONS.unsupported, `${field}: backend storage PVC ${claimName} must be a Filesystem claim`);
  return mount.path;
}

export function planTPM(input: ConverterInput): TPMPlan | undefined {
  const spec = input.vmi.spec;
  if (!hasTPM(spec)) return undefined;
  const persistent = hasPersistentTPM(spec);
  const stateDir = persistent ? join(backendStorageDir(input, 'spec.domain.devices.tpm.persistent'), BACKEND_TPM_DIR) : join(input.podDir, SWTPM_STATE_DIR);
  return { socket: join(input.podDir, SWTPM_SOCKET), stateDir, persistent };
}

export function renderTPMArgs(plan: TPMPlan | undefined, machine: string): string[] {
  if (!plan) return [];
  const q35 = machine === 'q35' || machine.startsWith('pc-q35');
  return [
    '-chardev', `socket,id=chrtpm,path=${escapeOptValue(plan.socket)}`,
    '-tpmdev', 'emulator,id=tpm-tpm0,chardev=chrtpm',
    '-device', renderJson({ driver: q35 ? 'tpm-crb' : 'tpm-tis', tpmdev: 'tpm-tpm0', id: 'tpm0' }),
  ];
}
