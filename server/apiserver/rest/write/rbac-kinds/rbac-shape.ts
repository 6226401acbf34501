/**
 * What kube's typed JSON decoder refuses before any validation: RBAC fields of the wrong JSON
 * type (subjects as an object, verbs as a string...). A 400 with encoding/json's wording, so
 * nothing malformed reaches the authorizer's index.
 */
import { badRequest } from '../../status-error';

type Obj = Record<string, unknown>;

const jsonType = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'boolean' ? 'bool' : typeof v);
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function refuse(kind: string, path: string, value: unknown, goType: string): never {
  throw badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: json: cannot unmarshal ${jsonType(value)} into Go struct field ${kind}.${path} of type ${goType}`);
}

function strings(kind: string, path: string, v: unknown): void {
  if (v === undefined || v === null) return;
  if (!Array.isArray(v)) refuse(kind, path, v, '[]string');
  for (const x of v) if (typeof x !== 'string') refuse(kind, path, x, 'string');
}

function string(kind: string, path: string, v: unknown): void {
  if (v !== undefined && v !== null && typeof v !== 'string') refuse(kind, path, v, 'string');
}

function list(kind: string, path: string, v: unknown, goType: string, each: (item: Obj) => void): void {
  if (v === undefined || v === null) return;
  if (!Array.isArray(v)) refuse(kind, path, v, `[]${goType}`);
  for (const item of v) {
    if (!isObj(item)) refuse(kind, path, item, goType);
    each(item);
  }
}

function rules(kind: string, obj: Obj): void {
  list(kind, 'rules', obj.rules, 'v1.PolicyRule', (r) => {
    for (const f of ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs']) strings(kind, `rules.${f}`, r[f]);
  });
}

export function checkRoleShape(kind: 'Role' | 'ClusterRole', obj: Obj): void {
  rules(kind, obj);
  if (kind === 'ClusterRole' && obj.aggregationRule !== undefined && obj.aggregationRule !== null) {
    if (!isObj(obj.aggregationRule)) refuse(kind, 'aggregationRule', obj.aggregationRule, 'v1.AggregationRule');
    list(kind, 'aggregationRule.clusterRoleSelectors', obj.aggregationRule.clusterRoleSelectors, 'v1.LabelSelector', (s) => {
      if (s.matchLabels !== undefined && s.matchLabels !== null && !isObj(s.matchLabels)) refuse(kind, 'aggregationRule.clusterRoleSelectors.matchLabels', s.matchLabels, 'map[string]string');
      for (const v of Object.values(isObj(s.matchLabels) ? s.matchLabels : {})) string(kind, 'aggregationRule.clusterRoleSelectors.matchLabels', v);
      list(kind, 'aggregationRule.clusterRoleSelectors.matchExpressions', s.matchExpressions, 'v1.LabelSelectorRequirement', (e) => {
        string(kind, 'aggregationRule.clusterRoleSelectors.matchExpressions.key', e.key);
        string(kind, 'aggregationRule.clusterRoleSelectors.matchExpressions.operator', e.operator);
        strings(kind, 'aggregationRule.clusterRoleSelectors.matchExpressions.values', e.values);
      });
    });
  }
}

export function checkBindingShape(kind: 'RoleBinding' | 'ClusterRoleBinding', obj: Obj): void {
  if (obj.roleRef !== undefined && obj.roleRef !== null) {
    if (!isObj(obj.roleRef)) refuse(kind, 'roleRef', obj.roleRef, 'v1.RoleRef');
    for (const f of ['apiGroup', 'kind', 'name']) string(kind, `roleRef.${f}`, obj.roleRef[f]);
  }
  list(kind, 'subjects', obj.subjects, 'v1.Subject', (s) => {
    for (const f of ['kind', 'apiGroup', 'name', 'namespace']) string(kind, `subjects.${f}`, s[f]);
  });
}
