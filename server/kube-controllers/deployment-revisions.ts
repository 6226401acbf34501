/**
 * A Deployment's ReplicaSets as revisions (kube's deployment/util): which one is "new" (its
 * template equals the Deployment's, ignoring pod-template-hash), the revision numbers in
 * `deployment.kubernetes.io/revision`, and the new ReplicaSet a rollout creates.
 */
import type { V1PodTemplateSpec } from '@kubernetes/client-node';
import { sameJSON } from '../../lib/kubevirt';
import { ownerReference } from './owned-pods';
import {
  DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, POD_TEMPLATE_HASH_LABEL, REVISION_ANNOTATION, type Deployment, type ReplicaSet,
} from './resources';
import { computeTemplateHash } from './template-hash';

export function revisionOf(rs: ReplicaSet): number {
  const n = Number(rs.metadata?.annotations?.[REVISION_ANNOTATION] ?? 0);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

export const maxRevision = (sets: ReplicaSet[]) => sets.reduce((m, rs) => Math.max(m, revisionOf(rs)), 0);

/** JSON without null members (Go's zero values that one side wrote as null and the other left out) */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined).map(([k, x]) => [k, withoutNulls(x)]));
  return v;
}

function withoutHash(t: V1PodTemplateSpec | undefined): unknown {
  const copy = withoutNulls(structuredClone(t ?? {})) as V1PodTemplateSpec;
  if (copy.metadata?.labels) {
    delete copy.metadata.labels[POD_TEMPLATE_HASH_LABEL];
    if (Object.keys(copy.metadata.labels).length === 0) delete copy.metadata.labels;
  }
  return copy;
}

/** EqualIgnoreHash */
export function sameTemplate(a: V1PodTemplateSpec | undefined, b: V1PodTemplateSpec | undefined): boolean {
  return sameJSON(withoutHash(a), withoutHash(b));
}

/** the oldest ReplicaSet whose template is the Deployment's (kube picks the oldest on a tie) */
export function findNewReplicaSet(d: Deployment, sets: ReplicaSet[]): ReplicaSet | undefined {
  return [...sets].sort(byAge).find((rs) => sameTemplate(rs.spec?.template, d.spec?.template));
}

export function byAge(a: ReplicaSet, b: ReplicaSet): number {
  const t = (rs: ReplicaSet) => new Date((rs.metadata?.creationTimestamp as unknown as string | undefined) ?? 0).getTime();
  return t(a) - t(b) || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
}

/** annotations a Deployment passes on to its ReplicaSets (kubectl's own and the revision ones stay behind) */
export function copiedAnnotations(d: Deployment): Record<string, string> {
  const skip = new Set(['kubectl.kubernetes.io/last-applied-configuration', REVISION_ANNOTATION, 'deployment.kubernetes.io/revision-history', DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION]);
  return Object.fromEntries(Object.entries(d.metadata?.annotations ?? {}).filter(([k]) => !skip.has(k)));
}

/** the ReplicaSet a rollout creates: `<deployment>-<hash>`, the hash in its selector and labels */
export function renderNewReplicaSet(d: Deployment, revision: number, replicas: number, surge: number): ReplicaSet {
  const template = structuredClone(d.spec!.template);
  const hash = computeTemplateHash(template, d.status?.collisionCount);
  template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash } };
  const selector = structuredClone(d.spec!.selector);
  selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
  const desired = d.spec?.replicas ?? 1;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: `${d.metadata!.name}-${hash}`,
      namespace: d.metadata!.namespace,
      labels: template.metadata.labels,
      annotations: {
        ...copiedAnnotations(d),
        [REVISION_ANNOTATION]: String(revision),
        [DESIRED_REPLICAS_ANNOTATION]: String(desired),
        [MAX_REPLICAS_ANNOTATION]: String(desired + surge),
      },
      ownerReferences: [ownerReference('Deployment', d)],
    },
    spec: { replicas, minReadySeconds: d.spec?.minReadySeconds ?? 0, selector, template },
  };
}
