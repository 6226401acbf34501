/**
 * KubeVirt's "backend storage": one small claim per VM (`persistent-state-for-<vm>`) that keeps a
 * persistent TPM's state (swtpm) and persistent EFI variables (OVMF VARS) across restarts.
 * virt-controller creates it, the launcher Pod mounts it, the launcher keeps its files in it.
 */
import type { VirtualMachineInstanceSpec } from './vmi-spec-types';

export const BACKEND_STORAGE_PREFIX = 'persistent-state-for-';
/** the launcher Pod's volume for the claim (KubeVirt's name; the claim's own may be longer than a volume name allows) */
export const BACKEND_STORAGE_VOLUME = 'vm-state';
/** the claim's label naming its VM (KubeVirt finds the claim by it) */
export const BACKEND_STORAGE_LABEL = 'persistent-state-for';
/** KubeVirt's size for the claim */
export const BACKEND_STORAGE_SIZE = '10Mi';
/** inside the claim: swtpm's state directory and the EFI variables file */
export const BACKEND_TPM_DIR = 'swtpm';
export const BACKEND_EFI_VARS = 'nvram/efi-vars.fd';

export function backendStorageClaimName(vmName: string): string {
  return `${BACKEND_STORAGE_PREFIX}${vmName}`;
}

type SpecLike = Pick<VirtualMachineInstanceSpec, 'domain'> | undefined;

/** devices.tpm present and not switched off (`enabled: false`) */
export function hasTPM(spec: SpecLike): boolean {
  const tpm = spec?.domain?.devices?.tpm;
  return tpm !== undefined && tpm !== null && tpm.enabled !== false;
}

export function hasPersistentTPM(spec: SpecLike): boolean {
  return hasTPM(spec) && spec?.domain?.devices?.tpm?.persistent === true;
}

export function hasPersistentEFI(spec: SpecLike): boolean {
  return spec?.domain?.firmware?.bootloader?.efi?.persistent === true;
}

/** Whether a VM (template) or VMI needs backend storage. */
export function usesPersistentState(spec: SpecLike): boolean {
  return hasPersistentTPM(spec) || hasPersistentEFI(spec);
}
