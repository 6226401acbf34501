/**
 * Bootstrap policy reconciled at API server start, as kube-apiserver does: missing roles and
 * bindings are created; an existing one gains missing labels, annotations, rules, aggregation
 * selectors and subjects, and never loses what a user added. An object annotated
 * rbac.authorization.kubernetes.io/autoupdate: "false" is left alone. A binding whose roleRef
 * differs is recreated (roleRef cannot change).
 */
import { SYSTEM_USER, type ApiContext } from '../rest/api-context';
import { objectKey } from '../rest/codec/object-codec';
import { createObject } from '../rest/write/create-object';
import { deleteObject } from '../rest/write/delete-object';
import { updateObject } from '../rest/write/update-object';
import type { ServedType } from '../rest/types/resource-type';
import { AUTOUPDATE, KUBE_CLUSTER_ROLES, KUBE_CLUSTER_ROLE_BINDINGS } from './bootstrap-policy';
import { sameJson } from '../rest/write/storage-kinds/field-errors';
import { uncovered } from './covers';
import { componentPolicy } from './component-policy';
import { KUBEVIRT_CLUSTER_ROLES, KUBEVIRT_CLUSTER_ROLE_BINDINGS } from './kubevirt-policy';
import { RBAC_GROUP, type Binding, type LabelSelector, type Role, type Subject } from './policy';

const WRITE = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };

export const BOOTSTRAP_CLUSTER_ROLES: Role[] = [...KUBE_CLUSTER_ROLES, ...KUBEVIRT_CLUSTER_ROLES];
export const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: Binding[] = [...KUBE_CLUSTER_ROLE_BINDINGS, ...KUBEVIRT_CLUSTER_ROLE_BINDINGS];

type Meta = Role['metadata'];

/** labels and annotations: the expected ones added, existing values kept */
function mergedMeta(existing: Meta, expected: Meta): Pick<Meta, 'labels' | 'annotations'> {
  return { labels: { ...expected.labels, ...existing.labels }, annotations: { ...expected.annotations, ...existing.annotations } };
}

/** the reconciled role, or undefined when nothing needs to change */
export function reconcileRole(existing: Role, expected: Role): Role | undefined {
  if (existing.metadata.annotations?.[AUTOUPDATE] === 'false') return undefined;
  const meta = mergedMeta(existing.metadata, expected.metadata);
  const missing = uncovered(existing.rules ?? [], expected.rules ?? []);
  const selectors: LabelSelector[] = [...(existing.aggregationRule?.clusterRoleSelectors ?? [])];
  for (const s of expected.aggregationRule?.clusterRoleSelectors ?? []) if (!selectors.some((x) => sameJson(x, s))) selectors.push(s);
  const next: Role = {
    ...existing,
    metadata: { ...existing.metadata, ...meta },
    rules: [...(existing.rules ?? []), ...missing],
    ...(selectors.length ? { aggregationRule: { clusterRoleSelectors: selectors } } : {}),
  };
  return sameJson(next, existing) ? undefined : next;
}

const subjectKey = (s: Subject) => `${s.kind}/${s.namespace ?? ''}/${s.name}`;

/** 'recreate' when the roleRef differs; the binding with the missing subjects; or undefined */
export function reconcileBinding(existing: Binding, expected: Binding): Binding | 'recreate' | undefined {
  if (existing.metadata.annotations?.[AUTOUPDATE] === 'false') return undefined;
  if (!sameJson(existing.roleRef, expected.roleRef)) return 'recreate';
  const have = new Set((existing.subjects ?? []).map(subjectKey));
  const subjects = [...(existing.subjects ?? []), ...(expected.subjects ?? []).filter((s) => !have.has(subjectKey(s)))];
  const next: Binding = { ...existing, metadata: { ...existing.metadata, ...mergedMeta(existing.metadata, expected.metadata) }, subjects };
  return sameJson(next, existing) ? undefined : next;
}

async function ensure<T extends Role | Binding>(ctx: ApiContext, rt: ServedType, expected: T, reconcile: (cur: T, exp: T) => T | 'recreate' | undefined): Promise<void> {
  const name = expected.metadata.name;
  const kv = ctx.store.get(objectKey(rt, undefined, name));
  if (!kv) {
    await createObject(ctx, rt, undefined, structuredClone({ apiVersion: `${RBAC_GROUP}/v1`, kind: rt.kind, ...expected }), WRITE);
    return;
  }
  const next = reconcile(JSON.parse(kv.value) as T, expected);
  if (next === 'recreate') {
    await deleteObject(ctx, rt, undefined, name, { ...WRITE, propagationPolicy: 'Background' });
    await createObject(ctx, rt, undefined, structuredClone({ apiVersion: `${RBAC_GROUP}/v1`, kind: rt.kind, ...expected }), WRITE);
  } else if (next) {
    await updateObject(ctx, { rt, name, mutate: (cur) => ({ ...next, metadata: { ...next.metadata, resourceVersion: cur.metadata.resourceVersion } }) }, WRITE);
  }
}

/** creates or reconciles every bootstrap ClusterRole and ClusterRoleBinding, the components' included */
/** KubeVirt's own roles and bindings (not this cluster's kv:* ones): a bare cluster gets them from the install */
const isKubeVirtPolicy = (name: string) => !name.startsWith('kv:');

/**
 * `kubevirt: false` (a bare cluster, `kv apiserver --no-crds`): only Kubernetes' policy and this
 * cluster's kv:* roles, as on kind before an install; KubeVirt's user and component roles come
 * with deploy/cluster and go with `kubectl delete -k`.
 */
export async function reconcileBootstrapPolicy(ctx: ApiContext, opts: { kubevirt?: boolean } = {}): Promise<void> {
  const roles = ctx.registry.find(RBAC_GROUP, 'v1', 'clusterroles')!;
  const bindings = ctx.registry.find(RBAC_GROUP, 'v1', 'clusterrolebindings')!;
  const kubevirt = opts.kubevirt !== false;
  const components = kubevirt ? componentPolicy() : { roles: [], bindings: [] };
  const wanted = <T extends { metadata: { name: string } }>(o: T) => kubevirt || !KUBEVIRT_NAMES.has(o.metadata.name);
  for (const r of [...BOOTSTRAP_CLUSTER_ROLES.filter(wanted), ...components.roles]) await ensure(ctx, roles, r, reconcileRole);
  for (const b of [...BOOTSTRAP_CLUSTER_ROLE_BINDINGS.filter(wanted), ...components.bindings]) await ensure(ctx, bindings, b, reconcileBinding);
}

const KUBEVIRT_NAMES = new Set([...KUBEVIRT_CLUSTER_ROLES, ...KUBEVIRT_CLUSTER_ROLE_BINDINGS].map((o) => o.metadata.name).filter(isKubeVirtPolicy));
