/** PURE: the `start` subresource (KubeVirt's StartVMRequestHandler, §4.3). */
import { RunStrategy, VMIPhase, isVMIFinal, refuseStart, runStrategyOf } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance, VirtualMachineStateChangeRequest } from '../../../lib/kubevirt';
import { VM_RESOURCE, conflict, internal, refusalError } from '../api-error';
import type { StartOptions } from './options';
import { runStrategyPatch, stateChangePatch, type Write } from './writes';

export { MANUAL_RECOVERY_MESSAGE } from '../../../lib/kubevirt/lifecycle-rules';

export function planStart(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, opts: StartOptions): Write[] {
  const name = vm.metadata.name ?? '';
  const refused = refuseStart(vm, vmi);
  if (refused) throw refusalError(refused, name);
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
