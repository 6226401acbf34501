/**
 * PURE: the VMIM status the controller wants (KubeVirt's migration.go updateStatus), from the VMIM,
 * its VMI, its target Pod and the other migrations. Level-triggered: it walks the phases as far as
 * the world allows in one call. The caller writes the result once, only if it changed.
 *
 * Pending → Scheduling (target Pod exists) → Scheduled (target Pod running) → PreparingTarget
 * (VMI migrationState handed to this VMIM) → TargetReady (target handler published its address)
 * → Running (source handler started) → Succeeded (source reported completion and the target
 * handler took the VMI over) / Failed (any failure, cancel included).
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Condition, MigrationPhase, VirtualMachineInstance, VirtualMachineInstanceMigration, VirtualMachineInstanceMigrationStatus } from '../../../lib/kubevirt';
import { isVMIFinal } from '../../../lib/kubevirt';
import { isPodDown, isPodReadyForHandover } from '../vmi/pod-state';
import { FailureMessage, MigrationConditionType, Phase } from './constants';
import { dropQuotaRejection } from './quota-rejection';
import { hasSucceeded, isFinalPhase, isHandedOff, isTargetCreated, ownState, phaseOf } from './migration-state';

export interface MigrationStatusInputs {
  vmi?: VirtualMachineInstance;
  /** the newest target Pod of this VMIM, if any */
  targetPod?: V1Pod;
  /** another unfinished VMIM of the same VMI that owns its migrationState */
  otherOwner?: VirtualMachineInstanceMigration;
  now: Date;
}

interface Step { phase: MigrationPhase; failure?: string }

/** Failures that apply whatever the phase (checked before each step). */
function failure(vmim: VirtualMachineInstanceMigration, phase: string, i: MigrationStatusInputs): string | undefined {
  const { vmi, targetPod } = i;
  if (!vmi) return FailureMessage.vmiMissing;
  if (isVMIFinal(vmi)) return FailureMessage.vmiFinal;
  if (vmim.metadata.deletionTimestamp && !isHandedOff(phase)) return FailureMessage.canceled;
  const state = ownState(vmim, vmi);
  if (hasSucceeded(state, vmi)) return undefined;
  if (state?.failed) return state.abortStatus === 'Succeeded' ? FailureMessage.canceled : state.failureReason ?? FailureMessage.sourceReported;
  // an abort in flight: the target going away is expected; the source reports how it ended
  if (state?.abortRequested && !state.completed) return undefined;
  if (isHandedOff(phase) && !state) return FailureMessage.stateTaken;
  if (isTargetCreated(phase) && !targetPod) return FailureMessage.targetPodMissing;
  if (isTargetCreated(phase) && targetPod && (isPodDown(targetPod) || targetPod.metadata?.deletionTimestamp) && !state?.completed) return FailureMessage.targetPodDown;
  return undefined;
}

function nextStep(vmim: VirtualMachineInstanceMigration, phase: string, i: MigrationStatusInputs): Step | undefined {
  if (isFinalPhase(phase)) return undefined;
  const fail = failure(vmim, phase, i);
  if (fail) return { phase: Phase.Failed, failure: fail };
  const state = ownState(vmim, i.vmi);
  switch (phase) {
    case Phase.Unset:
      return i.otherOwner ? { phase: Phase.Failed, failure: FailureMessage.notEligible } : { phase: Phase.Pending };
    case Phase.Pending:
      return i.targetPod ? { phase: Phase.Scheduling } : undefined;
    case Phase.Scheduling:
      return i.targetPod && isPodReadyForHandover(i.targetPod) ? { phase: Phase.Scheduled } : undefined;
    case Phase.Scheduled:
      return state?.targetNode ? { phase: Phase.PreparingTarget } : undefined;
    case Phase.PreparingTarget:
      return state?.targetNodeAddress ? { phase: Phase.TargetReady } : undefined;
    case Phase.TargetReady:
      return state?.startTimestamp ? { phase: Phase.Running } : undefined;
    case Phase.Running:
      return hasSucceeded(state, i.vmi) ? { phase: Phase.Succeeded } : undefined;
    default:
      return undefined;
  }
}

function abortCondition(vmim: VirtualMachineInstanceMigration, now: Date): Condition | undefined {
  if (!vmim.metadata.deletionTimestamp) return undefined;
  const old = vmim.status?.conditions?.find((c) => c.type === MigrationConditionType.AbortRequested);
  return old ?? { type: MigrationConditionType.AbortRequested, status: 'True', lastProbeTime: null, lastTransitionTime: now.toISOString(), reason: 'MigrationAbortRequested', message: FailureMessage.canceled } as Condition;
}

export interface ComputedMigrationStatus { status: VirtualMachineInstanceMigrationStatus; failure?: string }

export function computeMigrationStatus(vmim: VirtualMachineInstanceMigration, i: MigrationStatusInputs): ComputedMigrationStatus {
  const status: VirtualMachineInstanceMigrationStatus = structuredClone(vmim.status ?? {});
  const stamps = status.phaseTransitionTimestamps ?? [];
  let phase = phaseOf(vmim);
  let failed: string | undefined;
  for (let step = nextStep(vmim, phase, i); step; step = nextStep(vmim, phase, i)) {
    phase = step.phase;
    failed = step.failure ?? failed;
    if (!stamps.some((s) => s.phase === phase)) stamps.push({ phase: phase as MigrationPhase, phaseTransitionTimestamp: i.now.toISOString() });
  }
  if (phase !== Phase.Unset) status.phase = phase as MigrationPhase;
  if (stamps.length) status.phaseTransitionTimestamps = stamps;
  dropQuotaRejection(status, phase);
  const abort = abortCondition(vmim, i.now);
  if (abort && !status.conditions?.some((c) => c.type === abort.type)) status.conditions = [...(status.conditions ?? []), abort];
  const state = ownState(vmim, i.vmi);
  if (state) status.migrationState = { ...(status.migrationState ?? {}), ...structuredClone(state) };
  if (failed) status.migrationState = { ...(status.migrationState ?? {}), failed: true, failureReason: status.migrationState?.failureReason ?? failed };
  return { status, failure: failed };
}
