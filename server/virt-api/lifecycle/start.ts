/** PURE: the `start` subresource (KubeVirt's StartVMRequestHandler, §4.3). */
import { RunStrategy, VMConditionType, VMIPhase, hasCondition, isVMIFinal, runStrategyOf } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance, VirtualMachineStateChangeRequest } from '../../../lib/kubevirt';
import { VM_RESOURCE, conflict, internal } from '../api-error';
import type { StartOptions } from './options';
import { runStrategyPatch, stateChangePatch, type Write } from './writes';

export const MANUAL_RECOVERY_MESSAGE = 'VM recovery required: Volume migration failed, leaving some volumes pointing to non-consistent targets; manual intervention is needed to reassign them to their original volumes.';
const NOT_RUNNING_PHASES: readonly (string | undefined)[] = [VMIPhase.Succeeded, VMIPhase.Failed, VMIPhase.Unknown, VMIPhase.Unset, undefined];

export function planStart(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, opts: StartOptions): Write[] {
  const name = vm.metadata.name ?? '';
  if (vmi && !NOT_RUNNING_PHASES.includes(vmi.status?.phase)) throw conflict(VM_RESOURCE, name, 'VM is already running');
  if (hasCondition(vm, VMConditionType.ManualRecoveryRequired, 'True')) throw conflict(VM_RESOURCE, name, MANUAL_RECOVERY_MESSAGE);
  const rs = runStrategyOf(vm);
  if (!rs.ok) throw internal(rs.error);
  const start: VirtualMachineStateChangeRequest = { action: 'Start', ...(opts.paused ? { data: { paused: 'true' } } : {}) };
  switch (rs.strategy) {
    case RunStrategy.Always:
    case RunStrategy.Once:
      throw conflict(VM_RESOURCE, name, `${rs.strategy} does not support manual start requests`);
    case RunStrategy.Halted: {
      const alreadyPaused = vm.spec.template.spec.startStrategy === 'Paused';
      return opts.paused && !alreadyPaused ? [stateChangePatch(vm, [start])] : [runStrategyPatch(vm, true)];
    }
    case RunStrategy.RerunOnFailure:
      if (vmi?.status?.phase === VMIPhase.Failed) throw conflict(VM_RESOURCE, name, 'RerunOnFailure does not support starting VM from failed state');
      return [stateChangePatch(vm, vmi?.status?.phase === VMIPhase.Succeeded ? [stop(vmi), start] : [start])];
    case RunStrategy.Manual:
      return [stateChangePatch(vm, vmi && isVMIFinal(vmi) ? [stop(vmi), start] : [start])];
    default:
      throw conflict(VM_RESOURCE, name, `${rs.strategy} does not support manual start requests`);
  }
}

const stop = (vmi: VirtualMachineInstance): VirtualMachineStateChangeRequest => ({ action: 'Stop', uid: vmi.metadata.uid });
