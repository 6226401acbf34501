/** Firmware: SMBIOS identity, BIOS (SeaBIOS) / EFI (OVMF pflash) / direct kernel boot. */
import { join } from 'node:path';
import type { ArgsPart, ConverterInput, ImageEntry } from './converter-types';
import { CONVERTER_REASONS, ConverterError, invalid } from './converter-error';
import { renderOpts } from './qemu-opts';
import { imageFile } from '../store-paths';
import { BACKEND_EFI_VARS, hasPersistentEFI } from '../../../lib/kubevirt/backend-storage';
import { backendStorageDir } from './qemu-args-tpm';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const SMBIOS_SERIAL = /^[\x20-\x7e]{1,64}$/;
export const EFI_VARS_FILE = 'efi-vars.fd';

/** EFI boots with secure boot unless it is switched off (KubeVirt's default on amd64: unset = on). */
export function isSecureBoot(input: ConverterInput): boolean {
  const efi = input.vmi.spec.domain.firmware?.bootloader?.efi;
  return efi !== undefined && efi !== null && efi.secureBoot !== false;
}

/**
 * The UUID the guest's firmware reports (SMBIOS type 1, what cloud-init reads): firmware.uuid, else
 * the VMI's uid; lower case; undefined when neither is a UUID. The one rule for QEMU and cloud-init.
 */
export function firmwareUUID(vmi: Pick<ConverterInput['vmi'], 'spec' | 'metadata'>): string | undefined {
  const uuid = vmi.spec.domain.firmware?.uuid ?? vmi.metadata.uid;
  return uuid && UUID.test(uuid) ? uuid.toLowerCase() : undefined;
}

/** `-uuid` from firmwareUUID() and KubeVirt's SMBIOS type 1 strings. */
export function renderIdentityArgs(input: ConverterInput): string[] {
  const fw = input.vmi.spec.domain.firmware;
  const args: string[] = [];
  if (fw?.uuid !== undefined && !UUID.test(fw.uuid)) throw invalid(`spec.domain.firmware.uuid: ${JSON.stringify(fw.uuid)} is not a UUID`);
  const uuid = firmwareUUID(input.vmi);
  if (uuid) args.push('-uuid', uuid);
  if (fw?.serial !== undefined && !SMBIOS_SERIAL.test(fw.serial)) {
    throw invalid('spec.domain.firmware.serial: printable ASCII only, at most 64 characters');
  }
  args.push('-smbios', renderOpts('type=1', { manufacturer: 'KubeVirt', product: 'None', family: 'KubeVirt', serial: fw?.serial }));
  return args;
}

function renderEfi(input: ConverterInput): ArgsPart {
  const secure = isSecureBoot(input);
  const code = secure ? input.ovmf?.secureBootCode : input.ovmf?.code;
  const vars = secure ? input.ovmf?.secureBootVars ?? input.ovmf?.vars : input.ovmf?.vars;
  if (!code || !vars) {
    throw new ConverterError(CONVERTER_REASONS.efiFirmwareNotFound, `EFI${secure ? ' Secure Boot' : ''} firmware (OVMF) is not installed on this node`);
  }
  // persistent: copied into the backend storage claim once (an existing file is kept) and used read-write there
  const varsCopy = hasPersistentEFI(input.vmi.spec)
    ? join(backendStorageDir(input, 'spec.domain.firmware.bootloader.efi.persistent'), BACKEND_EFI_VARS)
    : join(input.podDir, EFI_VARS_FILE);
  const args = [
    '-blockdev', JSON.stringify({ driver: 'file', filename: code, 'node-name': 'efi-code', 'read-only': true }),
    '-blockdev', JSON.stringify({ driver: 'file', filename: varsCopy, 'node-name': 'efi-vars' }),
    '-machine', 'pflash0=efi-code,pflash1=efi-vars',
  ];
  if (secure) args.push('-global', 'driver=cfi.pflash01,property=secure,value=on');
  return { args, files: [{ kind: 'copy', path: varsCopy, source: vars }] };
}

function resolveEntry(input: ConverterInput, ref: string, field: string): ImageEntry {
  const entry = input.image(ref);
  if (!entry) throw new ConverterError(CONVERTER_REASONS.imageNotFound, `${field}: image ${JSON.stringify(ref)} not found in the node's image store`);
  return entry;
}

function renderKernel(kernel: string, initrd: string | undefined, cmdline: string | undefined): string[] {
  const args = ['-kernel', kernel];
  if (initrd) args.push('-initrd', initrd);
  if (cmdline) args.push('-append', cmdline);
  return args;
}

/** kernelBoot.container, or the kernel of the first containerDisk image that carries one (the demo image). */
function renderKernelBoot(input: ConverterInput): string[] {
  const kb = input.vmi.spec.domain.firmware?.kernelBoot;
  if (kb?.container) {
    const field = 'spec.domain.firmware.kernelBoot.container';
    const entry = resolveEntry(input, kb.container.image, `${field}.image`);
    const kernelPath = kb.container.kernelPath ?? entry.kernel;
    if (!kernelPath) throw invalid(`${field}.kernelPath: image ${JSON.stringify(kb.container.image)} has no kernel`);
    const kernel = imageFile(entry, kernelPath, `${field}.kernelPath`);
    const initrdPath = kb.container.initrdPath ?? entry.initrd;
    const initrd = initrdPath ? imageFile(entry, initrdPath, `${field}.initrdPath`) : undefined;
    return renderKernel(kernel, initrd, kb.kernelArgs ?? entry.cmdline);
  }
  for (const vol of input.vmi.spec.volumes ?? []) {
    if (!vol.containerDisk) continue;
    const entry = input.image(vol.containerDisk.image);
    if (!entry?.kernel) continue;
    const field = `spec.volumes[${vol.name}].containerDisk`;
    const initrd = entry.initrd ? imageFile(entry, entry.initrd, field) : undefined;
    return renderKernel(imageFile(entry, entry.kernel, field), initrd, kb?.kernelArgs ?? entry.cmdline);
  }
  return [];
}

export function renderFirmwareArgs(input: ConverterInput): ArgsPart {
  const bootloader = input.vmi.spec.domain.firmware?.bootloader;
  if (bootloader?.efi && bootloader.bios) throw invalid('spec.domain.firmware.bootloader: bios and efi are mutually exclusive');
  // a kernel boot goes through OVMF too (its fw_cfg loader starts the kernel's EFI stub), as libvirt does
  if (bootloader?.efi) {
    const efi = renderEfi(input);
    return { ...efi, args: [...efi.args, ...renderKernelBoot(input)] };
  }
  const args = bootloader?.bios?.useSerial ? ['-device', 'sga'] : [];
  return { args: [...args, ...renderKernelBoot(input)] };
}
