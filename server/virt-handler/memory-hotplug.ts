/**
 * virt-handler's part of memory hotplug (KubeVirt's migration target's hotplugMemory): once a VMI
 * marked HotMemoryChange has finished the migration virt-controller started for it, the launcher
 * of the Pod sized for the new memory asks the virtio-mem device for spec.domain.memory.guest;
 * status.memory.guestRequested then shows it and the condition goes. A refusal turns the condition
 * False (KubeVirt's MemoryHotplugFailed), which makes the VM ask for a restart. guestCurrent follows
 * what the guest has plugged.
 */
import { MEMORY_CHANGE_CONDITION, formatBinaryQuantity, parseQuantity } from '../../lib/kubevirt';
import type { VirtualMachineInstance, VirtualMachineInstanceStatus } from '../../lib/kubevirt';
import { removeCondition, setCondition } from '../../lib/kubevirt/conditions';

export const MEMORY_HOTPLUG_FAILED_REASON = 'MemoryHotplugFailed';

/**
 * PURE: the guest memory in bytes to ask the launcher for, or undefined when nothing is to do:
 * a change in flight (HotMemoryChange True) whose migration started after the change was marked
 * and has completed, so this Pod was sized for it.
 */
export function wantedGuestBytes(vmi: VirtualMachineInstance): number | undefined {
  const memory = vmi.spec.domain.memory;
  if (!memory?.maxGuest) return undefined;
  const condition = vmi.status?.conditions?.find((c) => c.type === MEMORY_CHANGE_CONDITION && c.status === 'True');
  if (!condition) return undefined;
  const migration = vmi.status?.migrationState;
  // the target's domain must be up (KubeVirt plugs from the migration target once it detected it)
  if (!migration?.completed || migration.failed || !migration.startTimestamp || !migration.targetNodeDomainReadyTimestamp) return undefined;
  const marked = Math.floor(Date.parse(condition.lastTransitionTime ?? '') / 1000);
  const started = Math.floor(Date.parse(migration.startTimestamp) / 1000);
  if (!(started >= marked)) return undefined; // an older migration: wait for the one moving it
  const guest = parseQuantity(memory.guest);
  return guest === undefined ? undefined : Math.ceil(guest);
}

/** PURE: the status after the launcher set the memory (`currentBytes`) or refused (`error`). */
export function withMemoryResult(status: VirtualMachineInstanceStatus, vmi: VirtualMachineInstance, outcome: { currentBytes: number } | { error: string }, now: Date): VirtualMachineInstanceStatus {
  if ('error' in outcome) {
    const conditions = setCondition(status.conditions, { type: MEMORY_CHANGE_CONDITION, status: 'False', reason: MEMORY_HOTPLUG_FAILED_REASON, message: 'memory hotplug failed, the VM configuration is not supported' }, now);
    return { ...status, conditions };
  }
  const memory = { ...status.memory, guestRequested: vmi.spec.domain.memory?.guest, guestCurrent: formatBinaryQuantity(outcome.currentBytes) };
  return { ...status, memory, conditions: removeCondition(status.conditions, MEMORY_CHANGE_CONDITION) };
}

/** PURE: status.memory.guestCurrent from what the guest has plugged now (unchanged when equal). */
export function withGuestCurrent(status: VirtualMachineInstanceStatus, currentBytes: number): VirtualMachineInstanceStatus {
  const guestCurrent = formatBinaryQuantity(currentBytes);
  if (status.memory?.guestCurrent === guestCurrent) return status;
  return { ...status, memory: { ...status.memory, guestCurrent } };
}
