/**
 * What a user may do in one namespace, read from a SelfSubjectRulesReview's rules (as OpenShift's
 * console does): one review per namespace answers every button of every VM there. Pure: RBAC's
 * matching of verbs, API groups and resources (`*`, `res/sub`, `*\/sub`), without resourceNames
 * rules unless a name is asked about. A review marked `incomplete` is completed by access reviews
 * (namespace-access-review.ts).
 */
import { ACTION_SPECS, VM_ACTIONS, type VMAction } from './vm-actions';

export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface Attributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  name?: string;
}

const KUBEVIRT = 'kubevirt.io';
const SUB = 'subresources.kubevirt.io';

const has = (list: string[] | undefined, v: string) => !!list && (list.includes('*') || list.includes(v));

function resourceMatches(rule: ResourceRule, a: Attributes): boolean {
  const resources = rule.resources ?? [];
  if (resources.includes('*')) return true;
  if (!a.subresource) return resources.includes(a.resource);
  return resources.includes(`${a.resource}/${a.subresource}`) || resources.includes(`*/${a.subresource}`);
}

/** Whether any rule grants the attributes (RBAC is additive: one match allows). */
export function rulesAllow(rules: readonly ResourceRule[], a: Attributes): boolean {
  return rules.some((r) => has(r.verbs, a.verb) && has(r.apiGroups, a.group) && resourceMatches(r, a)
    && (!r.resourceNames?.length || (a.name !== undefined && r.resourceNames.includes(a.name))));
}

/** The request each VM action makes, as RBAC sees it. */
export function actionAttributes(action: VMAction): Attributes {
  const spec = ACTION_SPECS[action];
  if (spec.target === 'delete') return { verb: 'delete', group: KUBEVIRT, resource: 'virtualmachines' };
  return { verb: 'update', group: SUB, resource: spec.target === 'vm' ? 'virtualmachines' : 'virtualmachineinstances', subresource: spec.sub ?? action };
}

export interface NamespacePermissions {
  namespace: string;
  /** each lifecycle action on a VM of this namespace */
  actions: Record<VMAction, boolean>;
  createVM: boolean;
  /** save the YAML (PUT) */
  updateVM: boolean;
  /** live resize (merge patch) */
  patchVM: boolean;
  cancelMigration: boolean;
  vnc: boolean;
  serialConsole: boolean;
  /** the storage page's Delete (an unused PVC) */
  deletePVC: boolean;
  /** the groups page's − / + (merge patch of the scale subresource) */
  scaleReplicaSet: boolean;
  scalePool: boolean;
}

export function namespacePermissions(namespace: string, rules: readonly ResourceRule[]): NamespacePermissions {
  return permissionsFrom(namespace, (a) => rulesAllow(rules, a));
}

/** The page's rights in a namespace, each answered by `can` (rules, or access reviews). */
export function permissionsFrom(namespace: string, can: (a: Attributes) => boolean): NamespacePermissions {
  const vm = (verb: string) => can({ verb, group: KUBEVIRT, resource: 'virtualmachines' });
  const vmiSub = (subresource: string) => can({ verb: 'get', group: SUB, resource: 'virtualmachineinstances', subresource });
  return {
    namespace,
    actions: Object.fromEntries(VM_ACTIONS.map((a) => [a, can(actionAttributes(a))])) as Record<VMAction, boolean>,
    createVM: vm('create'),
    updateVM: vm('update'),
    patchVM: vm('patch'),
    cancelMigration: can({ verb: 'delete', group: KUBEVIRT, resource: 'virtualmachineinstancemigrations' }),
    vnc: vmiSub('vnc'),
    serialConsole: vmiSub('console'),
    deletePVC: can({ verb: 'delete', group: '', resource: 'persistentvolumeclaims' }),
    scaleReplicaSet: can({ verb: 'patch', group: KUBEVIRT, resource: 'virtualmachineinstancereplicasets', subresource: 'scale' }),
    scalePool: can({ verb: 'patch', group: 'pool.kubevirt.io', resource: 'virtualmachinepools', subresource: 'scale' }),
  };
}

/** Everything allowed: when the review itself fails the console lets the API server decide (a 403 still shows). */
export function allPermitted(namespace: string): NamespacePermissions {
  return namespacePermissions(namespace, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
}

/** Whether the user may do anything to VMs here (else the namespace is view-only for them). */
export const mayActOnVMs = (p: NamespacePermissions) => VM_ACTIONS.some((a) => p.actions[a]) || p.updateVM;
