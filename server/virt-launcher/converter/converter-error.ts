/**
 * Why a VMI cannot be turned into a QEMU command line. Reasons are modelled on KubeVirt's
 * sync-error reasons so virt-handler can copy them into the VMI's Synchronized condition.
 */
export const CONVERTER_REASONS = {
  /** a containerDisk / kernelBoot image is not in the local image store (KubeVirt: ErrImagePull). */
  imageNotFound: 'ErrImagePull',
  /** an ephemeral volume's claim cannot be resolved (KubeVirt: FailedPvcNotFound). */
  pvcNotFound: 'FailedPvcNotFound',
  /** bootloader.efi requested but no OVMF firmware is installed. */
  efiFirmwareNotFound: 'EFIFirmwareNotFound',
  /** a value the converter refuses (bad name, path escape, malformed quantity, ...). */
  invalidSpec: 'InvalidVMISpec',
  /** a field this launcher does not implement (multus networks, hugepages where the node has no hugetlbfs, ...). */
  unsupported: 'UnsupportedVMISpec',
} as const;

export type ConverterReason = (typeof CONVERTER_REASONS)[keyof typeof CONVERTER_REASONS];

export class ConverterError extends Error {
  constructor(readonly reason: ConverterReason, message: string) {
    super(message);
    this.name = 'ConverterError';
  }
}

export function invalid(message: string): ConverterError {
  return new ConverterError(CONVERTER_REASONS.invalidSpec, message);
}
