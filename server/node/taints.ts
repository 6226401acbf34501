import type { V1Node, V1Pod, V1Taint, V1Toleration } from '@kubernetes/client-node';
import { TAINT_DISK_PRESSURE, TAINT_MEMORY_PRESSURE } from './node-pressure';

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

export function toleratesTaint(tol: V1Toleration, taint: V1Taint): boolean {
  if (tol.effect && tol.effect !== taint.effect) return false;
  const op = tol.operator ?? 'Equal';
  if (!tol.key) return op === 'Exists'; // empty key + Exists tolerates everything
  if (tol.key !== taint.key) return false;
  return op === 'Exists' || (tol.value ?? '') === (taint.value ?? '');
}

/** Node's taints plus those the node lifecycle controller would add from conditions (we have none). */
export function effectiveTaints(node: V1Node): V1Taint[] {
  const taints = [...(node.spec?.taints ?? [])];
  const status = (type: string) => node.status?.conditions?.find((c) => c.type === type)?.status;
  const add = (key: string) => {
    if (!taints.some((t) => t.key === key)) taints.push({ key, effect: 'NoSchedule' });
  };
  if (status('Ready') !== 'True') add(TAINT_NOT_READY);
  if (status('MemoryPressure') === 'True') add(TAINT_MEMORY_PRESSURE);
  if (status('DiskPressure') === 'True') add(TAINT_DISK_PRESSURE);
  return taints;
}

/** The first NoSchedule/NoExecute taint the pod does not tolerate, if any. */
export function findUntoleratedTaint(pod: V1Pod, node: V1Node): V1Taint | undefined {
  const tolerations = pod.spec?.tolerations ?? [];
  return effectiveTaints(node).find((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerations.some((tol) => toleratesTaint(tol, t)));
}

/** spec.unschedulable (cordon) blocks unless the pod tolerates the unschedulable taint. */
export function isBlockedByCordon(pod: V1Pod, node: V1Node): boolean {
  if (!node.spec?.unschedulable) return false;
  const taint: V1Taint = { key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' };
  return !(pod.spec?.tolerations ?? []).some((tol) => toleratesTaint(tol, taint));
}
