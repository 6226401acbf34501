'use client';
/** The collections most pages share, one live watch each (shared across components by query key). */
import type { VirtualMachine, VirtualMachineInstance, VirtualMachineInstanceMigration } from '@/lib/kubevirt';
import type { KubeEvent } from '@/lib/console/why-not-running';
import { useResourceList } from './useResourceList';

export interface NodeObject {
  metadata: { name?: string; uid?: string; resourceVersion?: string; labels?: Record<string, string>; annotations?: Record<string, string>; creationTimestamp?: string };
  spec?: { unschedulable?: boolean; taints?: { key: string; effect: string }[] };
  status?: { capacity?: Record<string, string>; allocatable?: Record<string, string>; conditions?: { type: string; status: string; reason?: string; message?: string }[]; addresses?: { type: string; address: string }[] };
}

export const PATHS = {
  vms: '/apis/kubevirt.io/v1/virtualmachines',
  vmis: '/apis/kubevirt.io/v1/virtualmachineinstances',
  vmims: '/apis/kubevirt.io/v1/virtualmachineinstancemigrations',
  nodes: '/api/v1/nodes',
  events: '/api/v1/events',
  pods: '/api/v1/pods',
  namespaces: '/api/v1/namespaces',
};

export const useVMs = () => useResourceList<VirtualMachine>(PATHS.vms);
export const useVMIs = () => useResourceList<VirtualMachineInstance>(PATHS.vmis);
export const useMigrations = () => useResourceList<VirtualMachineInstanceMigration>(PATHS.vmims);
export const useNodes = () => useResourceList<NodeObject>(PATHS.nodes);
export const useEvents = () => useResourceList<KubeEvent>(PATHS.events);
export const useLauncherPods = () => useResourceList(PATHS.pods, { labelSelector: 'kubevirt.io=virt-launcher' });
