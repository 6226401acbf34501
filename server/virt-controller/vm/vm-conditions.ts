/**
 * PURE: the VM's conditions (KubeVirt's syncConditions, §1.6): VMI conditions copied (removed when
 * the VMI drops them), Ready always present, Failure for a sync error, RestartRequired, and the
 * conditions the VM owns itself (ManualRecoveryRequired) kept as they are.
 */
import { Reason, VMConditionType, VMIConditionType, findCondition } from '../../../lib/kubevirt';
import type { Condition, VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { VMI_CONDITION_MISSING_MESSAGE, VMI_NOT_EXISTS_MESSAGE } from './constants';

export interface VMSyncError {
  reason: string;
  message: string;
}

export interface ConditionInputs {
  syncError?: VMSyncError;
  /** the RestartRequired condition's message (KubeVirt's reason for it), or false */
  restartRequired: string | false;
  now: Date;
}

/** Conditions the VM controller owns; everything else on a VM is a copy of the VMI's. */
const VM_OWNED: readonly string[] = [VMConditionType.Failure, VMConditionType.RestartRequired, VMConditionType.ManualRecoveryRequired];

type NewCondition = Omit<Condition, 'lastTransitionTime' | 'lastProbeTime'>;

/** Keeps lastTransitionTime while the status does not change. */
function stamp(old: Condition | undefined, next: NewCondition, now: Date): Condition {
  const lastTransitionTime = old && old.status === next.status ? old.lastTransitionTime : now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { ...next, lastProbeTime: null, lastTransitionTime };
}

function readyCondition(vmi: VirtualMachineInstance | undefined): NewCondition | Condition {
  if (!vmi) return { type: VMConditionType.Ready, status: 'False', reason: Reason.VMINotExists, message: VMI_NOT_EXISTS_MESSAGE };
  const ready = findCondition(vmi, VMIConditionType.Ready);
  if (ready) return ready;
  return { type: VMConditionType.Ready, status: 'False', reason: Reason.VMIConditionMissing, message: VMI_CONDITION_MISSING_MESSAGE };
}

export function computeVMConditions(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, inputs: ConditionInputs): Condition[] {
  const old = vm.status?.conditions ?? [];
  const byType = (t: string) => old.find((c) => c.type === t);
  const out: Condition[] = [];
  const ready = readyCondition(vmi);
  out.push('lastTransitionTime' in ready && ready.lastTransitionTime ? ready : stamp(byType(ready.type), ready, inputs.now));
  for (const c of vmi?.status?.conditions ?? []) {
    if (c.type !== VMIConditionType.Ready && !VM_OWNED.includes(c.type)) out.push(c);
  }
  if (inputs.syncError) {
    const next = { type: VMConditionType.Failure, status: 'True' as const, reason: inputs.syncError.reason, message: inputs.syncError.message };
    out.push(stamp(byType(VMConditionType.Failure), next, inputs.now));
  }
  if (inputs.restartRequired) {
    const next = { type: VMConditionType.RestartRequired, status: 'True' as const, message: inputs.restartRequired };
    out.push(stamp(byType(VMConditionType.RestartRequired), next, inputs.now));
  }
  const manual = byType(VMConditionType.ManualRecoveryRequired);
  if (manual) out.push(manual);
  return out;
}
