/**
 * kube-apiserver's default RBAC policy (the part this cluster serves): cluster-admin, the
 * aggregated admin / edit / view roles and the roles aggregated into them, discovery,
 * public info, basic-user and monitoring, with their bindings. Facts from kube's bootstrap
 * policy; rules reduced to the API groups this server can serve or proxy.
 */
import type { Binding, PolicyRule, Role } from './policy';
import { RBAC_GROUP } from './policy';

export const AUTOUPDATE = 'rbac.authorization.kubernetes.io/autoupdate';
export const BOOTSTRAPPING = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
export const AGGREGATE_TO = (role: 'admin' | 'edit' | 'view') => `rbac.authorization.k8s.io/aggregate-to-${role}`;

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];

export const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => ({ apiGroups, resources, verbs });
const urls = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ nonResourceURLs, verbs });

/** a bootstrap ClusterRole; `kubernetes.io/bootstrapping: rbac-defaults` unless labels say it is someone else's (KubeVirt's) */
export function clusterRole(name: string, rules: PolicyRule[], labels: Record<string, string> = {}, aggregateFrom?: string[], bootstrapping = true): Role {
  return {
    metadata: { name, labels: { ...(bootstrapping ? BOOTSTRAPPING : {}), ...labels }, annotations: { [AUTOUPDATE]: 'true' } },
    ...(aggregateFrom ? { aggregationRule: { clusterRoleSelectors: aggregateFrom.map((l) => ({ matchLabels: { [l]: 'true' } })) } } : {}),
    rules,
  };
}

export function clusterRoleBinding(name: string, role: string, groups: string[], users: string[] = []): Binding {
  return {
    metadata: { name, labels: { ...BOOTSTRAPPING }, annotations: { [AUTOUPDATE]: 'true' } },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
    subjects: [...groups.map((g) => ({ apiGroup: RBAC_GROUP, kind: 'Group', name: g })), ...users.map((u) => ({ apiGroup: RBAC_GROUP, kind: 'User', name: u }))],
  };
}

const VIEW_RULES: PolicyRule[] = [
  rule(READ, [''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status']),
  rule(READ, [''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status']),
  rule(READ, [''], ['namespaces']),
  rule(READ, ['discovery.k8s.io'], ['endpointslices']),
  rule(READ, ['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status']),
  rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
  rule(READ, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
  rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
  rule(READ, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
];

const EDIT_RULES: PolicyRule[] = [
  rule(READ, [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
  rule(['impersonate'], [''], ['serviceaccounts']),
  rule(WRITE, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
  rule(['create'], [''], ['pods/eviction']),
  rule(WRITE, [''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy']),
  rule(['create'], [''], ['serviceaccounts/token']),
  rule(WRITE, ['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale']),
  rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
  rule(WRITE, ['batch'], ['cronjobs', 'jobs']),
  rule(WRITE, ['policy'], ['poddisruptionbudgets']),
  rule(WRITE, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
];

const ADMIN_RULES: PolicyRule[] = [
  rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
  rule([...READ, ...WRITE], [RBAC_GROUP], ['rolebindings', 'roles']),
];

export const KUBE_CLUSTER_ROLES: Role[] = [
  clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
  clusterRole('admin', [], {}, [AGGREGATE_TO('admin')]),
  clusterRole('edit', [], { [AGGREGATE_TO('admin')]: 'true' }, [AGGREGATE_TO('edit')]),
  clusterRole('view', [], { [AGGREGATE_TO('edit')]: 'true' }, [AGGREGATE_TO('view')]),
  clusterRole('system:aggregate-to-admin', ADMIN_RULES, { [AGGREGATE_TO('admin')]: 'true' }),
  clusterRole('system:aggregate-to-edit', EDIT_RULES, { [AGGREGATE_TO('edit')]: 'true' }),
  clusterRole('system:aggregate-to-view', VIEW_RULES, { [AGGREGATE_TO('view')]: 'true' }),
  clusterRole('system:discovery', [urls(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'])]),
  clusterRole('system:public-info-viewer', [urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])]),
  clusterRole('system:basic-user', [
    rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
    rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
  ]),
  clusterRole('system:monitoring', [urls(['get'], ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'])]),
];

export const KUBE_CLUSTER_ROLE_BINDINGS: Binding[] = [
  clusterRoleBinding('cluster-admin', 'cluster-admin', ['system:masters']),
  clusterRoleBinding('system:discovery', 'system:discovery', ['system:authenticated']),
  clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', ['system:authenticated', 'system:unauthenticated']),
  clusterRoleBinding('system:basic-user', 'system:basic-user', ['system:authenticated']),
  clusterRoleBinding('system:monitoring', 'system:monitoring', ['system:monitoring']),
];
