/**
 * PURE: what the run strategy asks of the world right now (KubeVirt's syncRunStrategy, §1.2).
 * The caller performs the action; creation is gated by crash-loop backoff and ManualRecoveryRequired.
 */
import {
  RunStrategy, StateChangeAction, VMConditionType, VMIPhase,
  hasCondition, hasStartRequest, hasStopRequestForVMI, isVMIFinal, runStrategyOf,
} from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { backoffRemainingMs } from './start-failure';
import { isPausedStartRequested } from './state-change-requests';

export type RunAction =
  | { type: 'none' }
  | { type: 'create'; paused: boolean }
  /** crash-loop backoff: try again after this many ms */
  | { type: 'wait'; afterMs: number }
  | { type: 'delete'; uid: string }
  /** RerunOnFailure after a failure: delete and queue a Start so the next VMI comes up */
  | { type: 'delete-and-request-start'; uid: string }
  /** Halted with a queued Start (start paused): flip the spec to Always / running: true */
  | { type: 'set-running' }
  | { type: 'invalid'; message: string };

const NONE: RunAction = { type: 'none' };

function create(vm: VirtualMachine, now: Date): RunAction {
  if (hasCondition(vm, VMConditionType.ManualRecoveryRequired, 'True')) return NONE;
  const afterMs = backoffRemainingMs(vm, now);
  if (afterMs > 0) return { type: 'wait', afterMs };
  return { type: 'create', paused: isPausedStartRequested(vm) };
}

const del = (vmi: VirtualMachineInstance): RunAction => ({ type: 'delete', uid: vmi.metadata.uid ?? '' });

export function decideRunAction(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, now: Date): RunAction {
  const rs = runStrategyOf(vm);
  if (!rs.ok) return { type: 'invalid', message: rs.error };
  const deleting = !!vmi?.metadata.deletionTimestamp;
  switch (rs.strategy) {
    case RunStrategy.Always:
      if (!vmi) return create(vm, now);
      if (deleting) return NONE;
      return hasStopRequestForVMI(vm, vmi) || isVMIFinal(vmi) ? del(vmi) : NONE;
    case RunStrategy.RerunOnFailure:
      if (!vmi) {
        const switched = vm.status?.runStrategy !== RunStrategy.RerunOnFailure;
        return hasStartRequest(vm) || switched ? create(vm, now) : NONE;
      }
      if (deleting) return NONE;
      if (hasStopRequestForVMI(vm, vmi)) return del(vmi);
      if (vmi.status?.phase === VMIPhase.Failed) return { type: 'delete-and-request-start', uid: vmi.metadata.uid ?? '' };
      return vmi.status?.phase === VMIPhase.Succeeded ? del(vmi) : NONE;
    case RunStrategy.Manual:
      if (!vmi) return hasStartRequest(vm) ? create(vm, now) : NONE;
      return !deleting && hasStopRequestForVMI(vm, vmi) ? del(vmi) : NONE;
    case RunStrategy.Halted:
      if (vm.status?.stateChangeRequests?.[0]?.action === StateChangeAction.Start) return { type: 'set-running' };
      return vmi && !deleting ? del(vmi) : NONE;
    case RunStrategy.Once:
      return vmi ? NONE : create(vm, now);
    default:
      return NONE; // WaitAsReceiver needs decentralized migration, which is not implemented
  }
}
