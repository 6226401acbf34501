import { EVENTS_V1_SELECTABLE_FIELDS, eventFromCore, eventToCore } from '../codec/event-conversion';
import { ALL_VERBS, type ServedType } from './resource-type';

/** The built-in kinds the embedded API server serves, one descriptor each. */
interface BuiltinSpec {
  group?: string;
  version?: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  status?: boolean;
  /** an autoscaling/v1 Scale subresource over spec.replicas / status.replicas, selector from spec.selector */
  scale?: boolean;
  extraSubresources?: string[];
  verbs?: string[];
  returnDeletedObject?: boolean;
}

const SPECS: BuiltinSpec[] = [
  { resource: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'], status: true, extraSubresources: ['finalize'] },
  { resource: 'pods', kind: 'Pod', namespaced: true, shortNames: ['po'], categories: ['all'], status: true, extraSubresources: ['binding', 'eviction', 'log', 'portforward'], returnDeletedObject: true },
  { resource: 'nodes', kind: 'Node', namespaced: false, shortNames: ['no'], status: true },
  { resource: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'] },
  { resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] },
  { resource: 'secrets', kind: 'Secret', namespaced: true },
  { resource: 'services', kind: 'Service', namespaced: true, shortNames: ['svc'], categories: ['all'], status: true },
  { resource: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true, shortNames: ['sa'], extraSubresources: ['token'] },
  { resource: 'resourcequotas', kind: 'ResourceQuota', namespaced: true, shortNames: ['quota'], status: true },
  { resource: 'endpoints', kind: 'Endpoints', namespaced: true, shortNames: ['ep'] },
  { resource: 'persistentvolumes', kind: 'PersistentVolume', namespaced: false, shortNames: ['pv'], status: true },
  { resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', namespaced: true, shortNames: ['pvc'], status: true },
  { group: 'discovery.k8s.io', resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true },
  { group: 'storage.k8s.io', resource: 'storageclasses', kind: 'StorageClass', namespaced: false, shortNames: ['sc'] },
  { group: 'networking.k8s.io', resource: 'networkpolicies', kind: 'NetworkPolicy', namespaced: true, shortNames: ['netpol'] },
  { group: 'events.k8s.io', resource: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'] },
  { group: 'coordination.k8s.io', resource: 'leases', kind: 'Lease', namespaced: true },
  { group: 'apps', resource: 'controllerrevisions', kind: 'ControllerRevision', namespaced: true },
  { group: 'apps', resource: 'deployments', kind: 'Deployment', namespaced: true, shortNames: ['deploy'], categories: ['all'], status: true, scale: true },
  { group: 'apps', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true, shortNames: ['rs'], categories: ['all'], status: true, scale: true },
  { group: 'apps', resource: 'daemonsets', kind: 'DaemonSet', namespaced: true, shortNames: ['ds'], categories: ['all'], status: true },
  { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false, shortNames: ['crd', 'crds'], categories: ['api-extensions'], status: true },
  { group: 'admissionregistration.k8s.io', resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'] },
  { group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false, categories: ['api-extensions'] },
  { group: 'apiregistration.k8s.io', resource: 'apiservices', kind: 'APIService', namespaced: false, categories: ['api-extensions'], status: true },
  { group: 'authorization.k8s.io', resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false, verbs: ['create'] },
  { group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false, verbs: ['create'] },
  { group: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false, verbs: ['create'] },
  { group: 'rbac.authorization.k8s.io', resource: 'roles', kind: 'Role', namespaced: true },
  { group: 'rbac.authorization.k8s.io', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false },
  { group: 'rbac.authorization.k8s.io', resource: 'rolebindings', kind: 'RoleBinding', namespaced: true },
  { group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false },
  { group: 'authentication.k8s.io', resource: 'tokenreviews', kind: 'TokenReview', namespaced: false, verbs: ['create'] },
  { group: 'authentication.k8s.io', resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', namespaced: false, verbs: ['create'] },
  // CDI's cdi-apiserver serves this group by aggregation; served here natively (docs/storage.md)
  { group: 'upload.cdi.kubevirt.io', version: 'v1beta1', resource: 'uploadtokenrequests', kind: 'UploadTokenRequest', namespaced: true, shortNames: ['utr', 'utrs'], verbs: ['create'] },
];

function toServedType(s: BuiltinSpec): ServedType {
  const eventsV1 = s.group === 'events.k8s.io';
  return {
    ...(eventsV1 ? { storedAs: { group: '', toStorage: eventToCore, fromStorage: eventFromCore }, selectableFields: EVENTS_V1_SELECTABLE_FIELDS } : {}),
    group: s.group ?? '',
    version: s.version ?? 'v1',
    resource: s.resource,
    kind: s.kind,
    listKind: `${s.kind}List`,
    singular: s.kind.toLowerCase(),
    namespaced: s.namespaced,
    shortNames: s.shortNames ?? [],
    categories: s.categories ?? [],
    verbs: s.verbs ?? ALL_VERBS,
    subresources: { status: s.status ?? false, scale: s.scale ?? false },
    ...(s.scale ? { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' } } : {}),
    printerColumns: [],
    storage: true,
    served: true,
    extraSubresources: s.extraSubresources,
    returnDeletedObject: s.returnDeletedObject,
    builtin: true,
  };
}

export const BUILTIN_TYPES: readonly ServedType[] = SPECS.map(toServedType);

/** resources that have no storage: their create is answered by a handler */
export const VIRTUAL_RESOURCES = new Set(['subjectaccessreviews', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'tokenreviews', 'selfsubjectreviews', 'uploadtokenrequests']);

/** namespaces that always exist, created at start like kube-apiserver's bootstrap */
export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
