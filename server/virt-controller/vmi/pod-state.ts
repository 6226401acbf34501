/**
 * PURE: what the VMI controller needs to know about a launcher Pod (KubeVirt's lifecycle.go helpers).
 */
import type { V1Pod, V1PodCondition } from '@kubernetes/client-node';
import { APP_VIRT_LAUNCHER, COMPUTE_CONTAINER, Label } from './constants';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';

export function isLauncherPodOf(pod: V1Pod, vmi: VirtualMachineInstance): boolean {
  const labels = pod.metadata?.labels ?? {};
  if (labels[Label.App] !== APP_VIRT_LAUNCHER) return false;
  const owner = pod.metadata?.ownerReferences?.find((r) => r.controller);
  return owner ? owner.uid === vmi.metadata.uid : labels[Label.CreatedBy] === vmi.metadata.uid;
}

export function isPodTerminating(pod: V1Pod): boolean {
  return Boolean(pod.metadata?.deletionTimestamp);
}

/** The Pod ended (Succeeded/Failed) or its compute container terminated. */
export function isPodDown(pod: V1Pod): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return true;
  return Boolean(computeContainerStatus(pod)?.state?.terminated);
}

export function computeContainerStatus(pod: V1Pod) {
  return pod.status?.containerStatuses?.find((c) => c.name === COMPUTE_CONTAINER);
}

/** "Ready" in KubeVirt's sense: bound to a node, compute container running, not terminating. */
export function isPodReadyForHandover(pod: V1Pod): boolean {
  return Boolean(pod.spec?.nodeName) && !isPodTerminating(pod) && !isPodDown(pod)
    && pod.status?.phase === 'Running' && Boolean(computeContainerStatus(pod)?.state?.running);
}

export function podCondition(pod: V1Pod, type: string): V1PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/** Why a launcher Pod is down, in words a user can act on (from the container's terminated state when present). */
export function describePodDown(pod: V1Pod): { reason: string; message: string } {
  const term = computeContainerStatus(pod)?.state?.terminated;
  if (term) {
    const code = term.exitCode !== undefined ? ` (exit code ${term.exitCode})` : '';
    return { reason: term.reason ?? 'Error', message: term.message ?? `virt-launcher exited${code}` };
  }
  return { reason: pod.status?.reason ?? 'PodFailed', message: pod.status?.message ?? `launcher pod ${pod.metadata?.name} is ${pod.status?.phase}` };
}

/**
 * The Pod that currently runs (or will run) the VMI: the newest on the VMI's node once it has one
 * (during a migration the target Pod is not the VMI's Pod yet), else the newest not down.
 */
export function currentLauncherPod(pods: V1Pod[], nodeName?: string): V1Pod | undefined {
  const onNode = nodeName ? pods.filter((p) => p.spec?.nodeName === nodeName) : [];
  if (onNode.length) return newest(onNode);
  const alive = pods.filter((p) => !isPodDown(p));
  return newest(alive.length ? alive : pods);
}

function newest(pods: V1Pod[]): V1Pod | undefined {
  const created = (p: V1Pod) => new Date(p.metadata?.creationTimestamp ?? 0).getTime();
  return [...pods].sort((a, b) => created(b) - created(a))[0];
}
