/**
 * One DaemonSet sync's decisions from the caches (kube's manage + rollingUpdate + status): a Pod
 * for each eligible Node without one, surplus and misplaced Pods deleted, failed Pods replaced,
 * and — with RollingUpdate — Pods of an older template deleted while no more than maxUnavailable
 * Nodes lack an available Pod. Pure, so the rollout rules are tested without a cluster.
 */
import type { V1DaemonSetStatus, V1Node, V1Pod } from '@kubernetes/client-node';
import { daemonPodNode, shouldRunOn } from './daemonset-pods';
import { isPodActive, isPodAvailable, isPodReady } from './pod-availability';
import { scaledValue } from './rollout-math';
import { CONTROLLER_REVISION_HASH_LABEL, type DaemonSet } from './resources';

export interface DaemonPlan {
  /** node names that need a Pod */
  create: string[];
  remove: V1Pod[];
  status: V1DaemonSetStatus;
}

const created = (p: V1Pod) => new Date((p.metadata?.creationTimestamp as unknown as string | undefined) ?? 0).getTime();

export function planDaemonSet(ds: DaemonSet, nodes: V1Node[], owned: V1Pod[], hash: string, now: number): DaemonPlan {
  const minReady = ds.spec?.minReadySeconds ?? 0;
  const byNode = new Map<string, V1Pod[]>();
  for (const p of owned) {
    const n = daemonPodNode(p);
    if (!n || p.metadata?.deletionTimestamp) continue;
    byNode.set(n, [...(byNode.get(n) ?? []), p]);
  }
  const create: string[] = [];
  const remove: V1Pod[] = [];
  const status = { desired: 0, current: 0, misscheduled: 0, ready: 0, updated: 0, available: 0 };
  const oldOnNode: { pod: V1Pod; available: boolean }[] = [];
  let unavailableNodes = 0;
  const nodeNames = new Set(nodes.map((n) => n.metadata!.name!));
  for (const node of nodes) {
    const name = node.metadata!.name!;
    const pods = byNode.get(name) ?? [];
    if (!shouldRunOn(ds, node)) {
      if (pods.length) { status.misscheduled++; remove.push(...pods); }
      continue;
    }
    status.desired++;
    const failed = pods.filter((p) => p.status?.phase === 'Failed');
    remove.push(...failed);
    const live = pods.filter(isPodActive).sort((a, b) => created(a) - created(b));
    if (live.length === 0) { if (failed.length === 0) create.push(name); unavailableNodes++; continue; }
    status.current++;
    // more than one: keep the oldest (kube keeps the oldest as well)
    remove.push(...live.slice(1));
    const pod = live[0];
    const available = isPodAvailable(pod, minReady, now);
    if (isPodReady(pod)) status.ready++;
    if (available) status.available++; else unavailableNodes++;
    if (pod.metadata?.labels?.[CONTROLLER_REVISION_HASH_LABEL] === hash) status.updated++;
    else oldOnNode.push({ pod, available });
  }
  // Pods on Nodes that are gone
  for (const [node, pods] of byNode) if (!nodeNames.has(node)) remove.push(...pods);
  const strategy = ds.spec?.updateStrategy;
  if (strategy?.type !== 'OnDelete' && oldOnNode.length) {
    const maxUnavailable = Math.max(1, scaledValue(strategy?.rollingUpdate?.maxUnavailable as number | string | undefined ?? 1, status.desired, true));
    // old Pods that are not available anyway go first: replacing them costs no availability
    for (const o of oldOnNode.filter((x) => !x.available)) remove.push(o.pod);
    let budget = maxUnavailable - unavailableNodes;
    for (const o of oldOnNode.filter((x) => x.available)) {
      if (budget <= 0) break;
      remove.push(o.pod);
      budget--;
    }
  }
  return {
    create,
    remove,
    status: {
      desiredNumberScheduled: status.desired,
      currentNumberScheduled: status.current,
      numberMisscheduled: status.misscheduled,
      numberReady: status.ready,
      updatedNumberScheduled: status.updated,
      numberAvailable: status.available,
      numberUnavailable: Math.max(0, status.desired - status.available),
      observedGeneration: ds.metadata?.generation,
      ...(ds.status?.collisionCount !== undefined ? { collisionCount: ds.status.collisionCount } : {}),
    },
  };
}
