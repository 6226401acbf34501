/**
 * PURE: the VMI status the controller wants, from the VMI, its launcher Pods and the last sync error
 * (KubeVirt's watch/vmi/lifecycle.go updateStatus). Runs even when sync failed; the caller writes
 * the result once, only if it differs from what is stored.
 *
 * The controller owns Pending → Scheduling → Scheduled and the failures it can see from the Pod;
 * from Scheduled on virt-handler owns the phase (Running/Succeeded/Failed) and its own conditions,
 * and Ready while the VMI is Running (lib/kubevirt/vmi-ready.ts).
 */
import type { V1Pod } from '@kubernetes/client-node';
import { Condition, Phase, Reason } from './constants';
import { removeCondition, setCondition } from '../../../lib/kubevirt/conditions';
import { currentLauncherPod, describePodDown, isPodDown, isPodReadyForHandover, podCondition } from './pod-state';
import { computeVMIReady, controllerOwnsReady } from '../../../lib/kubevirt/vmi-ready';
import type { Condition as VMICondition, VirtualMachineInstance, VMIPhase } from '../../../lib/kubevirt';

export interface SyncError { reason: string; message: string; requeueAfterMs?: number }
export type VMIStatus = NonNullable<VirtualMachineInstance['status']>;
export interface StatusInputs { pods: V1Pod[]; syncError?: SyncError; now: Date }

const FINAL = new Set<string>([Phase.Succeeded, Phase.Failed]);
const CONTROLLER_PHASES = new Set<string>(['', Phase.Pending, Phase.Scheduling]);

export function isFinal(phase: string | undefined): boolean {
  return FINAL.has(phase ?? '');
}

interface Step { phase: VMIPhase; reason?: string; nodeName?: string }

/** One transition from `phase`, or undefined when the VMI stays where it is. */
function nextPhase(phase: VMIPhase, pod: V1Pod | undefined, deleting: boolean): Step | undefined {
  switch (phase) {
    case Phase.Pending:
      if (pod) return { phase: Phase.Scheduling };
      return deleting ? { phase: Phase.Failed, reason: Reason.Deleted } : undefined;
    case Phase.Scheduling:
      if (!pod) return { phase: Phase.Failed, reason: Reason.PodMissing };
      if (isPodDown(pod)) return { phase: Phase.Failed, reason: describePodDown(pod).reason };
      return isPodReadyForHandover(pod) ? { phase: Phase.Scheduled, nodeName: pod.spec!.nodeName } : undefined;
    case Phase.Scheduled:
      if (!pod) return { phase: Phase.Failed, reason: Reason.PodMissing };
      return isPodDown(pod) ? { phase: Phase.Failed, reason: describePodDown(pod).reason } : undefined;
    case Phase.Running:
      return pod ? undefined : { phase: Phase.Failed, reason: Reason.PodMissing };
    default:
      return undefined;
  }
}

const IMAGE_PULL_REASONS = new Set<string>([Reason.ErrImagePull, Reason.ImagePullBackOff]);

/** The launcher Pod's image pull failure (the kubelet's waiting reason and message), as KubeVirt copies it. */
export function podImagePullError(pod: V1Pod | undefined): SyncError | undefined {
  const waiting = pod?.status?.containerStatuses?.find((c) => IMAGE_PULL_REASONS.has(c.state?.waiting?.reason ?? ''))?.state?.waiting;
  return waiting ? { reason: waiting.reason!, message: waiting.message ?? '' } : undefined;
}

function isImagePullCondition(conds: VMICondition[]): boolean {
  return IMAGE_PULL_REASONS.has(conds.find((c) => c.type === Condition.Synchronized)?.reason ?? '');
}

function computeConditions(status: VMIStatus, pod: V1Pod | undefined, inputs: StatusInputs, wasControllers: boolean): VMICondition[] {
  let conds = status.conditions ?? [];
  const syncError = inputs.syncError ?? (CONTROLLER_PHASES.has(status.phase ?? '') ? podImagePullError(pod) : undefined);
  const scheduled = pod && podCondition(pod, 'PodScheduled');
  conds = scheduled?.status === 'False'
    ? setCondition(conds, { type: Condition.PodScheduled, status: 'False', reason: scheduled.reason, message: scheduled.message }, inputs.now)
    : removeCondition(conds, Condition.PodScheduled);
  if (syncError) {
    conds = setCondition(conds, { type: Condition.Synchronized, status: 'False', reason: syncError.reason, message: syncError.message }, inputs.now);
  } else if (CONTROLLER_PHASES.has(status.phase ?? '') || (wasControllers && isImagePullCondition(conds))) {
    // a pull failure this controller copied goes once the Pod stops reporting it, also in the sync
    // that hands the VMI over (after that, Synchronized is the handler's)
    conds = removeCondition(conds, Condition.Synchronized);
  }
  // from Running on, Ready is virt-handler's (it writes it with Running, and follows the Pod)
  return controllerOwnsReady(status.phase) ? setCondition(conds, computeVMIReady(status.phase, pod, conds), inputs.now) : conds;
}

/**
 * Pod UID → node of the VMI's Pods: both during a migration; a Pod that is down stays only while it
 * is on the VMI's node (the handler reads its termination record), so a finished migration's
 * source Pod and a failed target Pod drop out.
 */
function computeActivePods(pods: V1Pod[], nodeName: string | undefined): Record<string, string> | undefined {
  const active = (p: V1Pod) => !isPodDown(p) || !nodeName || p.spec?.nodeName === nodeName;
  const entries = pods.filter((p) => p.spec?.nodeName && p.metadata?.uid && active(p)).map((p) => [p.metadata!.uid!, p.spec!.nodeName!]);
  return entries.length ? Object.fromEntries(entries) : undefined;
}

export function computeStatus(vmi: VirtualMachineInstance, inputs: StatusInputs): VMIStatus {
  const status: VMIStatus = structuredClone(vmi.status ?? {});
  const pod = currentLauncherPod(inputs.pods, vmi.status?.nodeName);
  const deleting = Boolean(vmi.metadata.deletionTimestamp);
  status.phase ||= Phase.Pending;
  const stamps = status.phaseTransitionTimestamps ?? [];
  const stamp = (phase: VMIPhase) => {
    if (!stamps.some((s) => s.phase === phase)) stamps.push({ phase, phaseTransitionTimestamp: inputs.now.toISOString() });
  };
  stamp(status.phase);
  for (let step = nextPhase(status.phase, pod, deleting); step; step = nextPhase(status.phase, pod, deleting)) {
    status.phase = step.phase;
    if (step.nodeName) {
      status.nodeName = step.nodeName;
      // as KubeVirt at hand-over: migrations go through the launchers' unix sockets (proxied), never a TCP proxy in the Pod
      status.migrationTransport ??= 'Unix';
    }
    if (step.phase === Phase.Failed && step.reason) status.reason = step.reason;
    stamp(step.phase);
  }
  status.phaseTransitionTimestamps = stamps;
  const active = computeActivePods(inputs.pods, status.nodeName);
  if (active) status.activePods = active;
  else delete status.activePods;
  if (pod?.status?.qosClass) status.qosClass = pod.status.qosClass;
  status.conditions = computeConditions(status, pod, inputs, CONTROLLER_PHASES.has(vmi.status?.phase ?? ''));
  return status;
}
