/**
 * The VM's `status.printableStatus` (KubeVirt's setPrintableStatus, §1.5): an ordered
 * list of predicates, first match wins, else `Unknown`. Shared by the VM controller and the UI.
 */
import { PrintableStatus, Reason, RunStrategy, VMIConditionType, VMIPhase } from './enums';
import { hasCondition, isVMIFinal, isVMIMigrating } from './conditions';
import { isSetToStart, runStrategyOf } from './run-strategy';
import {
  hasDataVolumeError, hasDataVolumeProvisioning, hasUnboundPVC,
  type DataVolumeLike, type PersistentVolumeClaimLike,
} from './storage-state';
import type { VirtualMachine } from './vm-types';
import type { VirtualMachineInstance } from './vmi-types';

export interface PrintableStatusContext {
  now: Date;
  /** The controller expects a VMI to be created for this VM (pending create expectation). */
  creationExpected?: boolean;
  /** The controller expects the VM's VMI to be deleted (pending delete expectation). */
  deletionExpected?: boolean;
  /** DataVolumes in the VM's namespace (only those its volumes name are read). */
  dataVolumes?: DataVolumeLike[];
  /** PVCs in the VM's namespace (only those its volumes name are read). */
  persistentVolumeClaims?: PersistentVolumeClaimLike[];
}

type Rule = (vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, ctx: PrintableStatusContext) => boolean;

const CRASH_LOOP_STRATEGIES: readonly string[] = [RunStrategy.Always, RunStrategy.RerunOnFailure, RunStrategy.Once];
const STARTING_PHASES: readonly (string | undefined)[] = [
  undefined, VMIPhase.Unset, VMIPhase.Pending, VMIPhase.Scheduling, VMIPhase.Scheduled,
];

const isPaused = (vmi: VirtualMachineInstance) => hasCondition(vmi, VMIConditionType.Paused, 'True');
const isRunning = (vmi: VirtualMachineInstance) => vmi.status?.phase === VMIPhase.Running;
const isSyncFailed = (vmi: VirtualMachineInstance | undefined, reason: string) =>
  hasCondition(vmi, VMIConditionType.Synchronized, 'False', reason);
const volumesOf = (vm: VirtualMachine) => vm.spec?.template?.spec?.volumes;

/** The rules of §1.5 in their order; exported for the table test. */
export const PRINTABLE_STATUS_RULES: readonly [PrintableStatus, Rule][] = [
  [PrintableStatus.Terminating, (vm) => !!vm.metadata.deletionTimestamp],
  [PrintableStatus.Stopping, (_vm, vmi, ctx) =>
    !!vmi && !isVMIFinal(vmi) && (!!vmi.metadata.deletionTimestamp || !!ctx.deletionExpected)],
  [PrintableStatus.Migrating, (_vm, vmi, ctx) => !!vmi && isVMIMigrating(vmi, ctx.now)],
  [PrintableStatus.Paused, (_vm, vmi) => !!vmi && isRunning(vmi) && isPaused(vmi)],
  [PrintableStatus.Running, (_vm, vmi) => !!vmi && isRunning(vmi) && !isPaused(vmi)],
  [PrintableStatus.ErrorPvcNotFound, (_vm, vmi) => isSyncFailed(vmi, Reason.FailedPvcNotFound)],
  [PrintableStatus.DataVolumeError, (vm, _vmi, ctx) => hasDataVolumeError(volumesOf(vm), ctx.dataVolumes ?? [])],
  [PrintableStatus.ErrorUnschedulable, (_vm, vmi) =>
    hasCondition(vmi, VMIConditionType.PodScheduled, 'False', Reason.Unschedulable)],
  [PrintableStatus.Provisioning, (vm, _vmi, ctx) => hasDataVolumeProvisioning(volumesOf(vm), ctx.dataVolumes ?? [])],
  [PrintableStatus.WaitingForVolumeBinding, (vm, vmi, ctx) =>
    isSetToStart(vm, vmi) && hasUnboundPVC(volumesOf(vm), ctx.persistentVolumeClaims ?? [])],
  [PrintableStatus.ErrImagePull, (_vm, vmi) => isSyncFailed(vmi, Reason.ErrImagePull)],
  [PrintableStatus.ImagePullBackOff, (_vm, vmi) => isSyncFailed(vmi, Reason.ImagePullBackOff)],
  [PrintableStatus.Starting, (_vm, vmi, ctx) =>
    vmi ? STARTING_PHASES.includes(vmi.status?.phase) : !!ctx.creationExpected],
  [PrintableStatus.CrashLoopBackOff, isCrashLoopBackOff],
  [PrintableStatus.Stopped, (_vm, vmi, ctx) => (vmi ? isVMIFinal(vmi) : !ctx.creationExpected)],
  [PrintableStatus.WaitingForReceiver, (vm, vmi) => {
    const rs = runStrategyOf(vm);
    return rs.ok && rs.strategy === RunStrategy.WaitAsReceiver &&
      (!vmi || vmi.status?.phase === VMIPhase.WaitingForSync);
  }],
];

function isCrashLoopBackOff(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, ctx: PrintableStatusContext): boolean {
  if (vmi && !isVMIFinal(vmi)) return false;
  if (ctx.creationExpected) return false;
  const rs = runStrategyOf(vm);
  if (!rs.ok) return false;
  const fails = vm.status?.startFailure?.consecutiveFailCount ?? 0;
  return fails > 0 && CRASH_LOOP_STRATEGIES.includes(rs.strategy);
}

/** KubeVirt's printable status of a VM given its VMI (if any) and the controller's expectations. */
export function computePrintableStatus(
  vm: VirtualMachine,
  vmi: VirtualMachineInstance | undefined,
  ctx: PrintableStatusContext,
): PrintableStatus {
  for (const [status, rule] of PRINTABLE_STATUS_RULES) {
    if (rule(vm, vmi, ctx)) return status;
  }
  return PrintableStatus.Unknown;
}
