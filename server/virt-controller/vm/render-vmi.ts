/**
 * PURE: the VMI a VM starts (KubeVirt's SetupVMIFromVM, §1.8) and the ControllerRevision that
 * snapshots the VM spec it came from.
 */
import { KUBEVIRT_API_VERSION } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance, Volume } from '../../../lib/kubevirt';
import { Annotation, Finalizer, VM_KIND, VMI_KIND, revisionNameFor } from './constants';
import { stableFirmwareUUID } from './firmware-uuid';

export interface ControllerRevision {
  apiVersion: 'apps/v1';
  kind: 'ControllerRevision';
  metadata: { name: string; namespace: string; ownerReferences: unknown[]; labels?: Record<string, string> };
  data: { spec: VirtualMachine['spec'] };
  revision: number;
}

export function ownerReferenceTo(vm: VirtualMachine) {
  return {
    apiVersion: KUBEVIRT_API_VERSION, kind: VM_KIND, name: vm.metadata.name ?? '', uid: vm.metadata.uid ?? '',
    controller: true, blockOwnerDeletion: true,
  };
}

const hasDevice = (names: Set<string>, v: Volume) => names.has(v.name);

export function renderVMI(vm: VirtualMachine, opts: { paused: boolean }): VirtualMachineInstance {
  const template = structuredClone(vm.spec.template);
  const spec = template.spec;
  const generation = vm.metadata.generation ?? 1;
  spec.domain = spec.domain ?? { devices: {} };
  spec.domain.devices = spec.domain.devices ?? {};
  const devices = spec.domain.devices;
  const filesystems = (devices as { filesystems?: { name: string }[] }).filesystems ?? [];
  const named = new Set([...(devices.disks ?? []), ...filesystems].map((d) => d.name));
  const missing = (spec.volumes ?? []).filter((v) => !hasDevice(named, v));
  if (missing.length) devices.disks = [...(devices.disks ?? []), ...missing.map((v) => ({ name: v.name }))];
  if (!spec.domain.firmware?.uuid) spec.domain.firmware = { ...spec.domain.firmware, uuid: stableFirmwareUUID(vm.metadata.name ?? '') };
  if (opts.paused) spec.startStrategy = 'Paused';
  return {
    apiVersion: KUBEVIRT_API_VERSION,
    kind: VMI_KIND,
    metadata: {
      name: vm.metadata.name,
      namespace: vm.metadata.namespace,
      labels: template.metadata?.labels,
      annotations: { ...template.metadata?.annotations, [Annotation.VMGeneration]: String(generation) },
      ownerReferences: [ownerReferenceTo(vm)],
      finalizers: [Finalizer.VirtualMachineController],
    },
    spec,
  };
}

export function renderControllerRevision(vm: VirtualMachine): ControllerRevision {
  const generation = vm.metadata.generation ?? 1;
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: revisionNameFor(vm.metadata.uid ?? '', generation),
      namespace: vm.metadata.namespace ?? 'default',
      ownerReferences: [ownerReferenceTo(vm)],
    },
    data: { spec: structuredClone(vm.spec) },
    revision: generation,
  };
}
