/**
 * The VirtualMachineInstance the launcher reads: the shared spec model (lib/kubevirt), as
 * virt-handler passes it from the API server. `checkLauncherVMI` checks the shape the converter
 * relies on before anything reads it; every value is validated again by the converter before it
 * reaches a QEMU argument.
 */
import type { VirtualMachineInstanceSpec } from '../../lib/kubevirt/vmi-spec-types';

export type { Disk, DiskBus, Interface, Volume, Network, Firmware, Devices, DomainSpec } from '../../lib/kubevirt/vmi-spec-types';
export type CloudInitSource = import('../../lib/kubevirt/vmi-spec-types').CloudInitNoCloudSource;
export type VMISpec = VirtualMachineInstanceSpec;

export interface LauncherVMI {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; uid?: string; [k: string]: unknown };
  spec: VirtualMachineInstanceSpec;
  status?: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** the launcher's input, checked: a reason string when it is not a VMI the converter can read */
export function checkLauncherVMI(v: unknown): string | undefined {
  if (!isObject(v)) return 'the VMI is not an object';
  if (!isObject(v.metadata) || typeof v.metadata.name !== 'string' || !v.metadata.name) return 'metadata.name must be a non-empty string';
  if (!isObject(v.spec)) return 'spec must be an object';
  if (!isObject(v.spec.domain)) return 'spec.domain must be an object';
  for (const list of ['volumes', 'networks'] as const) {
    const items = v.spec[list];
    if (items !== undefined && (!Array.isArray(items) || !items.every((i) => isObject(i) && typeof i.name === 'string'))) return `spec.${list} must be a list of named objects`;
  }
  const devices = v.spec.domain.devices;
  if (devices !== undefined && !isObject(devices)) return 'spec.domain.devices must be an object';
  return undefined;
}
