/**
 * PURE: what the controller must do for one VMIM, given its freshly computed status and the world
 * (KubeVirt's migration.go sync): create or delete the target Pod, hand the VMI over, ask the
 * source to abort, mark a never-started migration failed on the VMI, clean up the source Pod,
 * drop the finalizer once final. The wiring executes the actions in order.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { VirtualMachineInstance, VirtualMachineInstanceMigration, VirtualMachineInstanceMigrationStatus } from '../../../lib/kubevirt';
import { isPodDown, isPodReadyForHandover } from '../vmi/pod-state';
import { Finalizer, Phase, VMIPhase, type MigrationSettings } from './constants';
import { isAlive, isHandedOff, ownState } from './migration-state';
import { checkPendingTargetPod } from './target-pod-timeout';
import type { ThrottleDecision } from './throttle';

export type MigrationAction =
  | { kind: 'createTargetPod' }
  | { kind: 'deleteTargetPod'; pod: V1Pod; why: string; unschedulable?: boolean }
  | { kind: 'handOff'; targetPod: V1Pod; sourcePod?: V1Pod }
  | { kind: 'requestAbort' }
  | { kind: 'markVMIStateFailed'; reason: string }
  | { kind: 'deleteSourcePod'; pod: V1Pod }
  | { kind: 'addFinalizer' }
  | { kind: 'removeFinalizer' }
  | { kind: 'requeueAfter'; ms: number; why: string };

export interface PlanInputs {
  status: VirtualMachineInstanceMigrationStatus;
  failure?: string;
  vmi?: VirtualMachineInstance;
  targetPod?: V1Pod;
  /** the VMI's other launcher Pods (not this VMIM's target) */
  sourcePods: V1Pod[];
  throttle: () => ThrottleDecision;
  settings: MigrationSettings;
  now: Date;
}

function planPending(vmim: VirtualMachineInstanceMigration, i: PlanInputs): MigrationAction[] {
  if (i.targetPod || vmim.metadata.deletionTimestamp || i.vmi?.status?.phase !== VMIPhase.Running) return [];
  if (Object.keys(i.vmi.status?.activePods ?? {}).length > 1) return [{ kind: 'requeueAfter', ms: 1_000, why: 'the VMI still has more than one active Pod' }];
  const t = i.throttle();
  return t.allowed ? [{ kind: 'createTargetPod' }] : [{ kind: 'requeueAfter', ms: t.retryAfterMs, why: t.why }];
}

function planTargetTimeout(i: PlanInputs): MigrationAction[] {
  if (!i.targetPod || isPodReadyForHandover(i.targetPod)) return [];
  const v = checkPendingTargetPod(i.targetPod, i.now, i.settings);
  if (v.expired) return [{ kind: 'deleteTargetPod', pod: i.targetPod, why: v.message, unschedulable: v.unschedulable }];
  return v.recheckAfterMs ? [{ kind: 'requeueAfter', ms: v.recheckAfterMs, why: 'target Pod pending' }] : [];
}

function planFinal(vmim: VirtualMachineInstanceMigration, i: PlanInputs): MigrationAction[] {
  const out: MigrationAction[] = [];
  const state = ownState(vmim, i.vmi);
  if (i.status.phase === Phase.Failed) {
    if (isAlive(i.targetPod)) out.push({ kind: 'deleteTargetPod', pod: i.targetPod, why: i.failure ?? 'migration failed' });
    if (state && !state.completed && !state.startTimestamp) out.push({ kind: 'markVMIStateFailed', reason: i.failure ?? 'migration failed' });
  } else if (state?.sourcePod) {
    // by name: a later migration's target Pod may already sit on the old source node
    const leftover = i.sourcePods.find((p) => p.metadata?.name === state.sourcePod && !p.metadata?.deletionTimestamp);
    if (leftover) out.push({ kind: 'deleteSourcePod', pod: leftover });
  }
  if (vmim.metadata.finalizers?.includes(Finalizer.MigrationJob)) out.push({ kind: 'removeFinalizer' });
  return out;
}

export function planMigration(vmim: VirtualMachineInstanceMigration, i: PlanInputs): MigrationAction[] {
  const phase = i.status.phase ?? Phase.Unset;
  if (phase === Phase.Succeeded || phase === Phase.Failed) return planFinal(vmim, i);
  // the mutating webhook adds it; without admission (or before it was installed) the controller does
  if (!vmim.metadata.deletionTimestamp && !vmim.metadata.finalizers?.includes(Finalizer.MigrationJob)) return [{ kind: 'addFinalizer' }];
  const state = ownState(vmim, i.vmi);
  switch (phase) {
    case Phase.Pending:
      return planPending(vmim, i);
    case Phase.Scheduling:
      return planTargetTimeout(i);
    case Phase.Scheduled:
      if (state || !i.targetPod || !isPodReadyForHandover(i.targetPod) || isPodDown(i.targetPod)) return [];
      return [{ kind: 'handOff', targetPod: i.targetPod, sourcePod: i.sourcePods.find((p) => p.spec?.nodeName === i.vmi?.status?.nodeName && !isPodDown(p)) }];
    default:
      if (vmim.metadata.deletionTimestamp && isHandedOff(phase) && state && !state.abortRequested && !state.completed) return [{ kind: 'requestAbort' }];
      return [];
  }
}
