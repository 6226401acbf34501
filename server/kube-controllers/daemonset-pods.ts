/**
 * Which Nodes a DaemonSet runs on and the Pod it puts there (kube's daemon controller): the
 * template's nodeSelector and required node affinity must match and every NoSchedule/NoExecute
 * taint be tolerated — by the template's tolerations plus those kube adds to every daemon Pod.
 * The Pod is pinned to its Node the way kube pins it: a required node affinity term matching
 * `metadata.name`, which the scheduler then honours.
 */
import type { V1Node, V1NodeSelectorTerm, V1Pod, V1Toleration } from '@kubernetes/client-node';
import { matchesNodeSelectorAndAffinity } from '../node/node-affinity';
import { toleratesTaint } from '../node/taints';
import { ownerReference } from './owned-pods';
import { CONTROLLER_REVISION_HASH_LABEL, type DaemonSet } from './resources';
import { computeTemplateHash } from './template-hash';

/** util.AddOrUpdateDaemonPodTolerations */
export function daemonTolerations(hostNetwork: boolean): V1Toleration[] {
  const t = (key: string, effect: string): V1Toleration => ({ key, operator: 'Exists', effect });
  return [
    t('node.kubernetes.io/not-ready', 'NoExecute'),
    t('node.kubernetes.io/unreachable', 'NoExecute'),
    t('node.kubernetes.io/disk-pressure', 'NoSchedule'),
    t('node.kubernetes.io/memory-pressure', 'NoSchedule'),
    t('node.kubernetes.io/pid-pressure', 'NoSchedule'),
    t('node.kubernetes.io/unschedulable', 'NoSchedule'),
    ...(hostNetwork ? [t('node.kubernetes.io/network-unavailable', 'NoSchedule')] : []),
  ];
}

function withDaemonTolerations(own: V1Toleration[] | undefined, hostNetwork: boolean): V1Toleration[] {
  const out = [...(own ?? [])];
  for (const t of daemonTolerations(hostNetwork)) {
    if (!out.some((o) => o.key === t.key && o.effect === t.effect && o.operator === t.operator)) out.push(t);
  }
  return out;
}

/** the template's hash: the `controller-revision-hash` label of its Pods */
export function daemonSetHash(ds: DaemonSet): string {
  return computeTemplateHash(ds.spec?.template, ds.status?.collisionCount);
}

/** nodeShouldRunDaemonPod: selector, affinity and taints against the Pod the DaemonSet would create */
export function shouldRunOn(ds: DaemonSet, node: V1Node): boolean {
  const spec = ds.spec?.template?.spec;
  const probe: V1Pod = { spec: { ...(spec ?? { containers: [] }), tolerations: withDaemonTolerations(spec?.tolerations, Boolean(spec?.hostNetwork)) } };
  if (!matchesNodeSelectorAndAffinity(probe, node)) return false;
  const taints = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
  return taints.every((taint) => probe.spec!.tolerations!.some((tol) => toleratesTaint(tol, taint)));
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: every required term becomes a match on the node's name */
function pinnedAffinity(pod: V1Pod, nodeName: string): NonNullable<V1Pod['spec']>['affinity'] {
  const field = { key: 'metadata.name', operator: 'In', values: [nodeName] };
  const affinity = structuredClone(pod.spec?.affinity ?? {});
  const required = affinity.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const terms: V1NodeSelectorTerm[] = required?.nodeSelectorTerms?.length
    ? required.nodeSelectorTerms.map((t) => ({ ...t, matchFields: [field] }))
    : [{ matchFields: [field] }];
  affinity.nodeAffinity = { ...(affinity.nodeAffinity ?? {}), requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } };
  return affinity;
}

/** the node a daemon Pod is for: its spec.nodeName, else the name its node affinity pins */
export function daemonPodNode(pod: V1Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  for (const t of pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
    const f = t.matchFields?.find((m) => m.key === 'metadata.name' && m.operator === 'In' && m.values?.length === 1);
    if (f) return f.values![0];
  }
  return undefined;
}

export function renderDaemonPod(ds: DaemonSet, nodeName: string, hash: string): V1Pod {
  const t = ds.spec!.template;
  const pod: V1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${ds.metadata!.name}-`,
      namespace: ds.metadata!.namespace,
      labels: { ...(t.metadata?.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: hash, 'pod-template-generation': String(ds.metadata?.generation ?? 1) },
      ...(t.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
      ownerReferences: [ownerReference('DaemonSet', ds)],
    },
    spec: structuredClone(t.spec ?? { containers: [] }),
  };
  pod.spec!.tolerations = withDaemonTolerations(pod.spec!.tolerations, Boolean(pod.spec!.hostNetwork));
  pod.spec!.affinity = pinnedAffinity(pod, nodeName);
  return pod;
}
