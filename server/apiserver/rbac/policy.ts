/** rbac.authorization.k8s.io/v1 shapes as the authorizer reads them (after defaults and validation). */
export const RBAC_GROUP = 'rbac.authorization.k8s.io';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject { kind: string; name: string; namespace?: string; apiGroup?: string }
export interface RoleRef { apiGroup: string; kind: string; name: string }

interface Meta { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> }
export interface LabelSelector { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] }

export interface Role { metadata: Meta; rules?: PolicyRule[]; aggregationRule?: { clusterRoleSelectors?: LabelSelector[] } }
export interface Binding { metadata: Meta; roleRef: RoleRef; subjects?: Subject[] }

/** what a request asks to do: a resource (resource set) or a non-resource URL (path set) */
export interface RequestAttributes {
  verb: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** non-resource requests only */
  path?: string;
}

export const RBAC_KINDS = {
  roles: { group: RBAC_GROUP, resource: 'roles', namespaced: true },
  clusterroles: { group: RBAC_GROUP, resource: 'clusterroles', namespaced: false },
  rolebindings: { group: RBAC_GROUP, resource: 'rolebindings', namespaced: true },
  clusterrolebindings: { group: RBAC_GROUP, resource: 'clusterrolebindings', namespaced: false },
} as const;

export const isRbacResource = (rt: { group: string; resource: string }) => rt.group === RBAC_GROUP && rt.resource in RBAC_KINDS;
