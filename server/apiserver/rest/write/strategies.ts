import { nowTimestamp } from '../codec/object-codec';
import type { StatusCause } from '../status-error';
import type { ApiObject } from '../types/api-object';
import type { ServedType } from '../types/resource-type';
import { SERVICE_STRATEGY } from './service-kinds/service-strategy';
import { NETWORK_POLICY_STRATEGY } from './network-kinds/networkpolicy-strategy';
import { CLUSTER_ROLE_BINDING_STRATEGY, CLUSTER_ROLE_STRATEGY, ROLE_BINDING_STRATEGY, ROLE_STRATEGY } from './rbac-kinds/rbac-strategy';
import { PV_STRATEGY, PVC_STRATEGY, STORAGE_CLASS_STRATEGY } from './storage-kinds/storage-strategies';
import { DAEMON_SET_STRATEGY, DEPLOYMENT_STRATEGY, REPLICA_SET_STRATEGY } from './apps-kinds/workload-strategy';
import { defaultPodSpec } from './apps-kinds/workload-defaults';
import { podQOSClass, type PodLike } from './pod-kinds/pod-qos';
import { RESOURCE_QUOTA_STRATEGY } from './quota-kinds/quota-strategy';

/**
 * Kind-specific behaviour of built-ins (kube's registry strategies), reduced to what
 * clients notice: defaults on create and which fields a write may touch.
 */
export const NAMESPACE_FINALIZER = 'kubernetes';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';
export const FINALIZER_ORPHAN = 'orphan';
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export type Strategy = {
  prepareForCreate?: (obj: ApiObject) => void;
  prepareForUpdate?: (obj: ApiObject, old: ApiObject) => void;
  /** a write to the status subresource */
  prepareForStatusUpdate?: (obj: Record<string, unknown>, old: Record<string, unknown>) => void;
  /** kube's Validate: the causes of a 422 Invalid (none → valid) */
  validate?: (obj: unknown) => StatusCause[];
  /** kube's ValidateUpdate (of main-resource writes) */
  validateUpdate?: (obj: unknown, old: unknown) => StatusCause[];
};

/**
 * A CRD's status as kube-apiextensions keeps it: a condition's lastTransitionTime moves only when
 * its status does (re-applying an unchanged CRD at every start is then no write at all), and
 * storedVersions only grows (objects stored in an older version still exist).
 */
interface CrdStatus { conditions?: { type: string; status: string; lastTransitionTime?: string }[]; storedVersions?: string[] }

const CRD_CONDITIONS = (crd: ApiObject, old?: { status?: CrdStatus }) => {
  const spec = crd.spec as { versions?: { name: string; storage?: boolean }[]; names?: unknown } | undefined;
  const t = nowTimestamp();
  const before = (type: string) => old?.status?.conditions?.find((c) => c.type === type && c.status === 'True');
  const cond = (type: string, reason: string, message: string) => ({ type, status: 'True', lastTransitionTime: before(type)?.lastTransitionTime ?? t, reason, message });
  const storage = (spec?.versions ?? []).filter((v) => v.storage).map((v) => v.name);
  return {
    conditions: [
      cond('NamesAccepted', 'NoConflicts', 'no conflicts found'),
      cond('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
    ],
    acceptedNames: spec?.names ?? {},
    storedVersions: [...new Set([...(old?.status?.storedVersions ?? []), ...storage])],
  };
};

const STRATEGIES: Record<string, Strategy> = {
  '/pods': {
    prepareForCreate(pod) {
      pod.spec ??= {};
      defaultPodSpec(pod.spec as Record<string, unknown>);
      pod.status = { phase: 'Pending', qosClass: podQOSClass(pod as PodLike) };
    },
  },
  '/namespaces': {
    prepareForCreate(ns) {
      ns.spec = { finalizers: [NAMESPACE_FINALIZER] };
      ns.status = { phase: 'Active' };
      ns.metadata.labels = { ...ns.metadata.labels, 'kubernetes.io/metadata.name': ns.metadata.name! };
    },
    prepareForUpdate(ns, old) { ns.spec = old.spec; },
  },
  '/services': SERVICE_STRATEGY,
  '/resourcequotas': RESOURCE_QUOTA_STRATEGY,
  'apiextensions.k8s.io/customresourcedefinitions': {
    prepareForCreate(crd) {
      crd.status = CRD_CONDITIONS(crd);
      crd.metadata.finalizers = [...new Set([...(crd.metadata.finalizers ?? []), CRD_CLEANUP_FINALIZER])];
    },
    prepareForUpdate(crd, old) {
      crd.status = CRD_CONDITIONS(crd, old as { status?: CrdStatus });
      const fins: string[] = crd.metadata.finalizers ?? [];
      if (!old.metadata.deletionTimestamp && !fins.includes(CRD_CLEANUP_FINALIZER)) crd.metadata.finalizers = [...fins, CRD_CLEANUP_FINALIZER];
    },
  },
  '/secrets': { prepareForCreate(s) { if (!s.type) s.type = 'Opaque'; } },
  '/persistentvolumeclaims': PVC_STRATEGY,
  '/persistentvolumes': PV_STRATEGY,
  'storage.k8s.io/storageclasses': STORAGE_CLASS_STRATEGY,
  'networking.k8s.io/networkpolicies': NETWORK_POLICY_STRATEGY,
  'apps/deployments': DEPLOYMENT_STRATEGY,
  'apps/replicasets': REPLICA_SET_STRATEGY,
  'apps/daemonsets': DAEMON_SET_STRATEGY,
  'rbac.authorization.k8s.io/roles': ROLE_STRATEGY,
  'rbac.authorization.k8s.io/clusterroles': CLUSTER_ROLE_STRATEGY,
  'rbac.authorization.k8s.io/rolebindings': ROLE_BINDING_STRATEGY,
  'rbac.authorization.k8s.io/clusterrolebindings': CLUSTER_ROLE_BINDING_STRATEGY,
};

export function strategyFor(rt: Pick<ServedType, 'group' | 'resource'>): Strategy {
  return STRATEGIES[`${rt.group}/${rt.resource}`] ?? {};
}

/** finalizers that keep an object after DELETE (namespaces also have spec.finalizers) */
export function pendingFinalizers(rt: Pick<ServedType, 'group' | 'resource'>, obj: ApiObject): string[] {
  const fs = [...(obj.metadata?.finalizers ?? [])];
  if (!rt.group && rt.resource === 'namespaces') fs.push(...((obj.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []));
  return fs;
}
