/**
 * PURE: which watch events carry a user's action, so the VM controller syncs them before a backlog
 * of first syncs (1000 VMs just created must not delay a `start` on one of them).
 */
import { isDeepStrictEqual } from 'node:util';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';

/** A VM update is urgent when its spec (generation), its stateChangeRequests or its deletion changed. */
export function isUrgentVMUpdate(old: VirtualMachine, vm: VirtualMachine): boolean {
  return old.metadata.generation !== vm.metadata.generation
    || !!old.metadata.deletionTimestamp !== !!vm.metadata.deletionTimestamp
    || !isDeepStrictEqual(old.status?.stateChangeRequests ?? [], vm.status?.stateChangeRequests ?? []);
}

/** A VMI update is urgent for its VM when the guest's phase, pause state or deletion changed (what the VM's status shows). */
export function isUrgentVMIUpdate(old: VirtualMachineInstance, vmi: VirtualMachineInstance): boolean {
  return old.status?.phase !== vmi.status?.phase
    || !!old.metadata.deletionTimestamp !== !!vmi.metadata.deletionTimestamp
    || !isDeepStrictEqual(old.status?.conditions?.map((c) => [c.type, c.status]), vmi.status?.conditions?.map((c) => [c.type, c.status]));
}
