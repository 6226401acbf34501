/** Effective run strategy of a VM (§1.1) and whether it is set to start. */
import { RunStrategy, StateChangeAction, VMIPhase } from './enums';
import type { VirtualMachine } from './vm-types';
import type { VirtualMachineInstance } from './vmi-types';

/** KubeVirt's error text when both `spec.running` and `spec.runStrategy` are set. */
export const RUNNING_AND_RUN_STRATEGY_ERROR = 'running and runstrategy are mutually exclusive';

export type RunStrategyResult =
  | { ok: true; strategy: RunStrategy }
  | { ok: false; error: string };

/**
 * KubeVirt's `vm.RunStrategy()`: both fields set → error; `running: true` → Always;
 * `running: false` or neither → Halted; otherwise `runStrategy`.
 */
export function runStrategyOf(vm: Pick<VirtualMachine, 'spec'>): RunStrategyResult {
  const { running, runStrategy } = vm.spec ?? {};
  const hasRunning = running !== undefined && running !== null;
  const hasStrategy = runStrategy !== undefined && runStrategy !== null;
  if (hasRunning && hasStrategy) return { ok: false, error: RUNNING_AND_RUN_STRATEGY_ERROR };
  if (hasRunning) return { ok: true, strategy: running ? RunStrategy.Always : RunStrategy.Halted };
  if (hasStrategy) return { ok: true, strategy: runStrategy };
  return { ok: true, strategy: RunStrategy.Halted };
}

/** True when the first queued state change request is a Start. */
export function hasStartRequest(vm: VirtualMachine): boolean {
  return vm.status?.stateChangeRequests?.[0]?.action === StateChangeAction.Start;
}

/** True when the first queued request is a Stop of this VMI (by UID). */
export function hasStopRequestForVMI(vm: VirtualMachine, vmi: VirtualMachineInstance): boolean {
  const first = vm.status?.stateChangeRequests?.[0];
  return first?.action === StateChangeAction.Stop && first.uid !== undefined && first.uid === vmi.metadata.uid;
}

/** KubeVirt's `isSetToStart`: whether the VM is configured to be running. */
export function isSetToStart(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined): boolean {
  const rs = runStrategyOf(vm);
  if (!rs.ok) return false;
  switch (rs.strategy) {
    case RunStrategy.Always:
      return true;
    case RunStrategy.Manual:
      return vmi ? !hasStopRequestForVMI(vm, vmi) : hasStartRequest(vm);
    case RunStrategy.RerunOnFailure:
      return vmi ? vmi.status?.phase !== VMIPhase.Succeeded : true;
    case RunStrategy.Once:
      return !vmi;
    default:
      return false;
  }
}
