/**
 * PURE: when KubeVirt refuses a lifecycle action, and with which code and message (virt-api's
 * StartVMRequestHandler & co., §4.3). One home for the rules: virt-api throws these refusals and
 * the console greys out the same actions with the same words, so a button is never offered that
 * the server would refuse. Run-strategy parse errors are not a refusal here: virt-api answers them
 * with a 500 of its own before the checks that need the strategy.
 */
import { RunStrategy, VMConditionType, VMIConditionType, VMIPhase } from './enums';
import { hasCondition, isVMIFinal } from './conditions';
import { runStrategyOf } from './run-strategy';
import type { VirtualMachine } from './vm-types';
import type { VirtualMachineInstance } from './vmi-types';

/** 409 Conflict on the named resource unless said otherwise; `resource` says which one the message names */
export interface Refusal { code: 404 | 403 | 409; resource: 'vm' | 'vmi'; message: string }

export const MANUAL_RECOVERY_MESSAGE = 'VM recovery required: Volume migration failed, leaving some volumes pointing to non-consistent targets; manual intervention is needed to reassign them to their original volumes.';
export const HALTED_STOP_MESSAGE = 'Halted only supports manual stop requests with a shorter graceperiod';

const NOT_RUNNING_PHASES: readonly (string | undefined)[] = [VMIPhase.Succeeded, VMIPhase.Failed, VMIPhase.Unknown, VMIPhase.Unset, undefined];
const onVM = (message: string): Refusal => ({ code: 409, resource: 'vm', message });
const onVMI = (message: string, code: 403 | 409 = 409): Refusal => ({ code, resource: 'vmi', message });

export function refuseStart(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined): Refusal | undefined {
  if (vmi && !NOT_RUNNING_PHASES.includes(vmi.status?.phase)) return onVM('VM is already running');
  if (hasCondition(vm, VMConditionType.ManualRecoveryRequired, 'True')) return onVM(MANUAL_RECOVERY_MESSAGE);
  const rs = runStrategyOf(vm);
  if (!rs.ok) return undefined;
  switch (rs.strategy) {
    case RunStrategy.Halted:
    case RunStrategy.Manual:
      return undefined;
    case RunStrategy.RerunOnFailure:
      return vmi?.status?.phase === VMIPhase.Failed ? onVM('RerunOnFailure does not support starting VM from failed state') : undefined;
    default:
      return onVM(`${rs.strategy} does not support manual start requests`);
  }
}

/** `gracePeriod`: the stop's own (a force stop sends 0) */
export function refuseStop(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, gracePeriod?: number): Refusal | undefined {
  const live = vmi && !isVMIFinal(vmi) ? vmi : undefined;
  const rs = runStrategyOf(vm);
  if (!rs.ok) return undefined;
  switch (rs.strategy) {
    case RunStrategy.Halted: {
      if (!live) return onVM('VM is not running');
      const old = live.spec.terminationGracePeriodSeconds;
      const shorter = gracePeriod !== undefined && (old === undefined || gracePeriod < old);
      return shorter ? undefined : onVM(HALTED_STOP_MESSAGE);
    }
    case RunStrategy.Manual:
    case RunStrategy.RerunOnFailure:
      return live ? undefined : onVM('VM is not running');
    default:
      return undefined; // Always/Once: stop flips the strategy to Halted
  }
}

export function refuseRestart(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined): Refusal | undefined {
  if (hasCondition(vm, VMIConditionType.VolumesChange, 'True')) return onVM(MANUAL_RECOVERY_MESSAGE);
  const rs = runStrategyOf(vm);
  if (!rs.ok) return undefined;
  if (rs.strategy === RunStrategy.Halted || rs.strategy === RunStrategy.Once) return onVM(`RunStategy ${rs.strategy} does not support manual restart requests`);
  return vmi ? undefined : onVM('VM is not running: Halted');
}

/** the `migrate` subresource's own checks (the VMIM admission refuses more: not migratable, one in flight) */
export function refuseMigrate(vmi: VirtualMachineInstance | undefined): Refusal | undefined {
  if (!vmi) return { code: 404, resource: 'vmi', message: 'not found' };
  return vmi.status?.phase === VMIPhase.Running ? undefined : onVM('VM is not running');
}

const isPaused = (vmi: VirtualMachineInstance) => hasCondition(vmi, VMIConditionType.Paused, 'True');

export function refusePause(vmi: VirtualMachineInstance): Refusal | undefined {
  // upstream answers on the VMI resource here (unlike the VM lifecycle verbs)
  if (vmi.status?.phase !== VMIPhase.Running) return onVMI('VM is not running');
  const probe = vmi.spec.livenessProbe;
  if (probe && !probe.guestAgentPing) return onVMI('Pausing VMIs with a non-GuestAgentPing LivenessProbe is not supported', 403);
  if (isPaused(vmi)) return onVMI('VMI is already paused');
  const m = vmi.status?.migrationState;
  if (m && !m.completed && !m.failed) return onVMI(`Cannot pause VM '${vmi.metadata.name ?? ''}' because it is currently being migrated`);
  return undefined;
}

export function refuseUnpause(vmi: VirtualMachineInstance, vm: VirtualMachine | undefined): Refusal | undefined {
  if (vm?.status?.snapshotInProgress) return onVM('VM snapshot is in progress');
  if (vmi.status?.phase !== VMIPhase.Running) return onVMI('VMI is not running');
  return isPaused(vmi) ? undefined : onVMI('VMI is not paused');
}

export function refuseSoftReboot(vmi: VirtualMachineInstance): Refusal | undefined {
  if (vmi.status?.phase !== VMIPhase.Running) return onVMI('VM is not running');
  if (isPaused(vmi)) return onVMI('VMI is paused');
  const agent = hasCondition(vmi, VMIConditionType.AgentConnected, 'True');
  const acpiOff = (vmi.spec.domain.features as { acpi?: { enabled?: boolean } } | undefined)?.acpi?.enabled === false;
  return !agent && acpiOff ? onVMI('VMI neither have the agent connected nor the ACPI feature enabled') : undefined;
}
