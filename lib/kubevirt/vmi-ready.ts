/**
 * PURE: the VMI's Ready condition (KubeVirt's syncReadyConditionFromPod), shared by its two writers:
 * virt-controller while the VMI is not Running, virt-handler while it is and in the write that
 * ends Running (`handlerOwnsReady`). The handler's write that says Running carries Ready too, so a
 * start costs no separate controller write to follow the guest into Running.
 */
import type { Condition } from './meta';
import { Reason, VMIConditionType, VMIPhase } from './enums';

/** The parts of a launcher Pod Ready is computed from (a V1Pod fits). */
export interface ReadyPod {
  metadata?: { deletionTimestamp?: unknown };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

export type ReadyCondition = Omit<Condition, 'lastTransitionTime' | 'lastProbeTime'>;

export function computeVMIReady(phase: string | undefined, pod: ReadyPod | undefined, conds: Condition[] | undefined): ReadyCondition {
  const type = VMIConditionType.Ready;
  if (!pod) return { type, status: 'False', reason: Reason.PodNotExists, message: 'virt-launcher pod has not yet been scheduled' };
  if (pod.metadata?.deletionTimestamp) return { type, status: 'False', reason: Reason.PodTerminating, message: 'virt-launcher pod is terminating' };
  if (phase !== VMIPhase.Running) return { type, status: 'False', reason: Reason.GuestNotRunning, message: 'Guest VM is not reported as running' };
  const paused = conds?.find((c) => c.type === VMIConditionType.Paused && c.status === 'True');
  if (paused) return { type, status: 'False', reason: paused.reason, message: paused.message };
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  if (!ready) return { type, status: 'False', reason: Reason.PodConditionMissing, message: 'virt-launcher pod is missing the Ready condition' };
  return ready.status === 'True' ? { type, status: 'True' } : { type, status: 'False', reason: ready.reason ?? 'PodNotReady', message: ready.message };
}

/**
 * Who writes Ready: virt-handler when its write says Running or moves the VMI out of Running
 * (`from` → `to`); virt-controller for every other phase, including its own Running → Failed
 * when the Pod is gone. One writer at a time, handed over with the phase.
 */
export function handlerOwnsReady(from: string | undefined, to: string | undefined): boolean {
  return to === VMIPhase.Running || from === VMIPhase.Running;
}

/** PURE: Ready as the controller writes it: every phase but Running, which is the handler's. */
export function controllerOwnsReady(phase: string | undefined): boolean {
  return phase !== VMIPhase.Running;
}
