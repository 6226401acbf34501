/** The bootstrap policy, aggregated, as an in-memory index (for unit tests and the bench). */
import { settleAggregation } from './aggregation';
import type { Binding, Role } from './policy';
import { RbacIndex, type PolicyObjects } from './rbac-index';
import { BOOTSTRAP_CLUSTER_ROLES, BOOTSTRAP_CLUSTER_ROLE_BINDINGS } from './reconcile-policy';

export function bootstrapIndex(extra: Partial<PolicyObjects> = {}): RbacIndex {
  const clusterRoles: Role[] = structuredClone([...BOOTSTRAP_CLUSTER_ROLES, ...(extra.clusterRoles ?? [])]);
  const changed = settleAggregation(clusterRoles);
  for (const r of clusterRoles) r.rules = changed.get(r.metadata.name) ?? r.rules;
  const clusterRoleBindings: Binding[] = [...BOOTSTRAP_CLUSTER_ROLE_BINDINGS, ...(extra.clusterRoleBindings ?? [])];
  return new RbacIndex({ clusterRoles, clusterRoleBindings, roles: extra.roles ?? [], roleBindings: extra.roleBindings ?? [] });
}
