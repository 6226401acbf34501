/**
 * virt-handler's part of CPU hotplug: a running VMI whose spec.domain.cpu.sockets (copied from its
 * VM by virt-controller under LiveUpdate) differs from status.currentCPUTopology asks its launcher
 * for that many sockets; the status then shows the topology the guest has. A refusal leaves the
 * HotVCPUChange condition on the VMI with the launcher's reason (KubeVirt removes the condition
 * once the change is done).
 */
import { VMIConditionType } from '../../lib/kubevirt';
import type { VirtualMachineInstance, VirtualMachineInstanceStatus } from '../../lib/kubevirt';
import { removeCondition, setCondition } from '../../lib/kubevirt/conditions';

/** PURE: the socket count to ask the launcher for, or undefined when nothing is to do. */
export function wantedSockets(vmi: VirtualMachineInstance): number | undefined {
  const cpu = vmi.spec.domain.cpu;
  const want = cpu?.sockets;
  if (!want || !cpu?.maxSockets) return undefined;
  const migration = vmi.status?.migrationState;
  if (migration?.startTimestamp && !migration.completed) return undefined; // after the migration, on whichever node runs it
  const have = vmi.status?.currentCPUTopology?.sockets;
  return have === want ? undefined : want;
}

/** PURE: the status after the launcher answered (`result`) or refused (`error`). */
export function withCPUResult(status: VirtualMachineInstanceStatus, vmi: VirtualMachineInstance, outcome: { sockets: number } | { error: string }, now: Date): VirtualMachineInstanceStatus {
  if ('error' in outcome) {
    const conditions = setCondition(status.conditions, { type: VMIConditionType.HotVCPUChange, status: 'True', reason: 'HotVCPUChangeFailed', message: outcome.error }, now);
    return { ...status, conditions };
  }
  const cpu = vmi.spec.domain.cpu;
  // only members with a value: an `undefined` one would make every later status compare unequal
  const currentCPUTopology = JSON.parse(JSON.stringify({ ...status.currentCPUTopology, sockets: outcome.sockets, cores: cpu?.cores, threads: cpu?.threads })) as VirtualMachineInstanceStatus['currentCPUTopology'];
  return { ...status, currentCPUTopology, conditions: removeCondition(status.conditions, VMIConditionType.HotVCPUChange) };
}
