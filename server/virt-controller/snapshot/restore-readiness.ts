/**
 * PURE: what a VirtualMachineRestore does while its target VM is not ready (KubeVirt's
 * `targetReadinessPolicy`, with its words). Ready means: no VMI of the VM exists (its launcher and
 * QEMU are gone, not merely a Succeeded/Failed VMI whose launcher may still be shutting down) and
 * the run strategy will not start one (Halted or Manual; KubeVirt keeps starts off through
 * `status.restoreInProgress` alone, which we set too once the restore begins).
 */
import { RunStrategy, runStrategyOf, type VirtualMachine } from '../../../lib/kubevirt';

/** KubeVirt's DefaultGracePeriod for WaitGracePeriod */
export const RESTORE_GRACE_PERIOD_MS = 5 * 60_000;
export const RESTORE_TARGET_NOT_READY_EVENT = 'RestoreTargetNotReady';

export const WAIT_EVENTUALLY_MESSAGE = 'Waiting for target VM to be powered off. Please stop the restore target to proceed with restore';
export const WAIT_GRACE_PERIOD_MESSAGE = `${WAIT_EVENTUALLY_MESSAGE}, or the operation will fail after 5m0s`;
export const STOP_TARGET_MESSAGE = 'Automatically stopping restore target for restore operation';
export const VMI_EXISTS_EVENT_MESSAGE = 'Restore target VMI still exists, please stop the restore target to proceed with restore';
export const TARGET_NOT_READY_FAILURE = 'Restore target VMI must be powered off before restore operation';
export const GRACE_PERIOD_EXCEEDED = 'Restore target failed to be ready within 5m0s. Please power off the target VM before attempting restore';

export type NotReadyDecision =
  | { action: 'wait'; message: string; event: string; retryAfterMs?: number }
  | { action: 'fail'; message: string }
  | { action: 'stop'; message: string };

export function targetReady(vm: Pick<VirtualMachine, 'spec'>, vmiExists: boolean): boolean {
  if (vmiExists) return false;
  const rs = runStrategyOf(vm);
  return rs.ok && (rs.strategy === RunStrategy.Halted || rs.strategy === RunStrategy.Manual);
}

/** `policy` as the restore names it (undefined: WaitGracePeriod); `createdMs`: the restore's creationTimestamp. */
export function decideNotReady(policy: string | undefined, createdMs: number, nowMs: number): NotReadyDecision {
  switch (policy ?? 'WaitGracePeriod') {
    case 'WaitEventually':
      return { action: 'wait', message: WAIT_EVENTUALLY_MESSAGE, event: VMI_EXISTS_EVENT_MESSAGE };
    case 'StopTarget':
      return { action: 'stop', message: STOP_TARGET_MESSAGE };
    case 'FailImmediate':
      return { action: 'fail', message: TARGET_NOT_READY_FAILURE };
    case 'WaitGracePeriod': {
      const left = createdMs + RESTORE_GRACE_PERIOD_MS - nowMs;
      if (!(left > 0)) return { action: 'fail', message: GRACE_PERIOD_EXCEEDED };
      return { action: 'wait', message: WAIT_GRACE_PERIOD_MESSAGE, event: VMI_EXISTS_EVENT_MESSAGE, retryAfterMs: left };
    }
    default:
      return { action: 'fail', message: `unknown targetReadinessPolicy: ${policy}` };
  }
}
