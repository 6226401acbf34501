'use client';
/** The collections most pages share, one live watch each (shared across components by query key). */
import { EventResource, NamespaceResource, NodeResource, PodResource, resourcePath, VirtualMachineInstanceMigrationResource, VirtualMachineInstanceResource, VirtualMachineResource } from '@/lib/kubevirt/resources';
import type { VirtualMachine, VirtualMachineInstance, VirtualMachineInstanceMigration } from '@/lib/kubevirt';
import type { KubeEvent } from '@/lib/console/why-not-running';
import { useResourceList } from './useResourceList';

export interface NodeObject {
  metadata: { name?: string; uid?: string; resourceVersion?: string; labels?: Record<string, string>; annotations?: Record<string, string>; creationTimestamp?: string };
  spec?: { unschedulable?: boolean; taints?: { key: string; effect: string }[] };
  status?: { capacity?: Record<string, string>; allocatable?: Record<string, string>; conditions?: { type: string; status: string; reason?: string; message?: string }[]; addresses?: { type: string; address: string }[] };
}

/** every collection the console watches, across all namespaces */
export const PATHS = {
  vms: resourcePath(VirtualMachineResource),
  vmis: resourcePath(VirtualMachineInstanceResource),
  vmims: resourcePath(VirtualMachineInstanceMigrationResource),
  nodes: resourcePath(NodeResource),
  events: resourcePath(EventResource),
  pods: resourcePath(PodResource),
  namespaces: resourcePath(NamespaceResource),
};

export const useVMs = () => useResourceList<VirtualMachine>(PATHS.vms);
export const useVMIs = () => useResourceList<VirtualMachineInstance>(PATHS.vmis);
export const useMigrations = () => useResourceList<VirtualMachineInstanceMigration>(PATHS.vmims);
export const useNodes = () => useResourceList<NodeObject>(PATHS.nodes);
export const useEvents = () => useResourceList<KubeEvent>(PATHS.events);
export const useLauncherPods = () => useResourceList(PATHS.pods, { labelSelector: 'kubevirt.io=virt-launcher' });
