/**
 * The RBAC policy in memory, indexed by subject: each (binding, subject) pair becomes one
 * grant of the referenced role's rules, cluster-wide (ClusterRoleBinding) or in one namespace
 * (RoleBinding). Rebuilt whole after any RBAC write; a lookup is a few map reads.
 */
import type { Binding, PolicyRule, RequestAttributes, Role, Subject } from './policy';
import { ruleAllows } from './rule-match';

export interface Grant {
  /** undefined: every namespace and cluster-scoped requests */
  namespace?: string;
  rules: readonly PolicyRule[];
  /** kube's description of where the grant comes from, for the reason of a decision */
  source: string;
}

export interface PolicyObjects { roles: Role[]; clusterRoles: Role[]; roleBindings: Binding[]; clusterRoleBindings: Binding[] }

export interface UserRef { username: string; groups: readonly string[] }

/** a role's rules, only well-formed ones (writes are type-checked; this guards the index against anything stored before) */
function rulesOf(r: Role): PolicyRule[] {
  return (Array.isArray(r.rules) ? r.rules : []).filter((x) => x !== null && typeof x === 'object' && Array.isArray(x.verbs));
}

const userKey = (name: string) => `u:${name}`;
const groupKey = (name: string) => `g:${name}`;

/** the index key a subject matches, or undefined (a ServiceAccount with no namespace to resolve it in) */
function subjectKey(s: Subject, bindingNamespace: string | undefined): string | undefined {
  if (s.kind === 'User') return userKey(s.name);
  if (s.kind === 'Group') return groupKey(s.name);
  if (s.kind === 'ServiceAccount') {
    const ns = s.namespace || bindingNamespace;
    return ns ? userKey(`system:serviceaccount:${ns}:${s.name}`) : undefined;
  }
  return undefined;
}

function describeSubject(s: Subject, bindingNamespace: string | undefined): string {
  if (s.kind === 'ServiceAccount') return `ServiceAccount "${s.namespace || bindingNamespace || ''}/${s.name}"`;
  return `${s.kind} "${s.name}"`;
}

export class RbacIndex {
  private readonly bySubject = new Map<string, Grant[]>();

  constructor(objs: PolicyObjects) {
    const clusterRoles = new Map(objs.clusterRoles.map((r) => [r.metadata.name, rulesOf(r)]));
    const roles = new Map(objs.roles.map((r) => [`${r.metadata.namespace}/${r.metadata.name}`, rulesOf(r)]));
    for (const b of objs.clusterRoleBindings) {
      if (b.roleRef?.kind !== 'ClusterRole') continue;
      this.addBinding(b, undefined, clusterRoles.get(b.roleRef.name), `ClusterRoleBinding "${b.metadata.name}"`);
    }
    for (const b of objs.roleBindings) {
      const ns = b.metadata.namespace;
      if (!ns) continue;
      const rules = b.roleRef?.kind === 'ClusterRole' ? clusterRoles.get(b.roleRef.name) : b.roleRef?.kind === 'Role' ? roles.get(`${ns}/${b.roleRef.name}`) : undefined;
      this.addBinding(b, ns, rules, `RoleBinding "${b.metadata.name}/${ns}"`);
    }
  }

  private addBinding(b: Binding, namespace: string | undefined, rules: readonly PolicyRule[] | undefined, what: string): void {
    if (!rules || rules.length === 0) return;
    for (const s of Array.isArray(b.subjects) ? b.subjects : []) {
      const key = subjectKey(s, namespace);
      if (!key) continue;
      const grant: Grant = { namespace, rules, source: `${what} of ${b.roleRef.kind} "${b.roleRef.name}" to ${describeSubject(s, namespace)}` };
      const list = this.bySubject.get(key);
      if (list) list.push(grant);
      else this.bySubject.set(key, [grant]);
    }
  }

  /** every grant that applies to the user (all namespaces) */
  grantsFor(user: UserRef): Grant[] {
    const out: Grant[] = [...(this.bySubject.get(userKey(user.username)) ?? [])];
    for (const g of user.groups) out.push(...(this.bySubject.get(groupKey(g)) ?? []));
    return out;
  }

  /** the grant allowing the request, or undefined */
  allowingGrant(user: UserRef, a: RequestAttributes): Grant | undefined {
    const found = this.scan(this.bySubject.get(userKey(user.username)), a);
    if (found) return found;
    for (const g of user.groups) {
      const hit = this.scan(this.bySubject.get(groupKey(g)), a);
      if (hit) return hit;
    }
    return undefined;
  }

  private scan(grants: Grant[] | undefined, a: RequestAttributes): Grant | undefined {
    if (!grants) return undefined;
    for (const grant of grants) {
      if (grant.namespace !== undefined && grant.namespace !== a.namespace) continue;
      for (const rule of grant.rules) if (ruleAllows(rule, a)) return grant;
    }
    return undefined;
  }

  /** the rules that apply in a namespace (cluster-wide ones included); '' = cluster-wide only */
  rulesFor(user: UserRef, namespace: string): PolicyRule[] {
    return this.grantsFor(user).filter((g) => g.namespace === undefined || g.namespace === namespace).flatMap((g) => g.rules);
  }
}
