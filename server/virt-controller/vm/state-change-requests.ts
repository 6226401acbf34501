/**
 * PURE: reading and trimming `status.stateChangeRequests` (KubeVirt's isTrimFirstChangeRequestNeeded, §1.3).
 * Only the first request is ever looked at; one is trimmed per sync, the status write triggers the next.
 */
import { StateChangeAction, isVMIFinal } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance, VirtualMachineStateChangeRequest } from '../../../lib/kubevirt';
import { START_PAUSED_KEY } from './constants';

export function firstRequest(vm: VirtualMachine): VirtualMachineStateChangeRequest | undefined {
  return vm.status?.stateChangeRequests?.[0];
}

/** The first request is a Start that asks for a paused guest. */
export function isPausedStartRequested(vm: VirtualMachine): boolean {
  const first = firstRequest(vm);
  return first?.action === StateChangeAction.Start && first.data?.[START_PAUSED_KEY] === 'true';
}

/** Whether the first request has been fulfilled (or can no longer apply) and must be removed. */
export function isTrimFirstRequestNeeded(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined): boolean {
  const first = firstRequest(vm);
  if (!first) return false;
  if (first.action === StateChangeAction.Stop) {
    return !vmi || !first.uid || first.uid !== vmi.metadata.uid;
  }
  if (first.action === StateChangeAction.Start) {
    return !!vmi && !vmi.metadata.deletionTimestamp && !isVMIFinal(vmi);
  }
  return true; // unknown action: drop it rather than block the queue
}

/** The requests after this sync (undefined when none are left). */
export function trimStateChangeRequests(
  vm: VirtualMachine,
  vmi: VirtualMachineInstance | undefined,
): VirtualMachineStateChangeRequest[] | undefined {
  const reqs = vm.status?.stateChangeRequests ?? [];
  const rest = isTrimFirstRequestNeeded(vm, vmi) ? reqs.slice(1) : reqs;
  return rest.length ? rest : undefined;
}
