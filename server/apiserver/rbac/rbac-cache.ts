/**
 * The RBAC index kept current from the store: every committed write to a Role, ClusterRole,
 * RoleBinding or ClusterRoleBinding marks it stale, and the next decision rebuilds it
 * (kube-apiserver's RBAC authorizer reads its informers' caches the same way).
 */
import type { Store } from '../store/types';
import { objectPrefix } from '../rest/codec/object-codec';
import { RBAC_KINDS, isRbacResource, type Binding, type Role } from './policy';
import { RbacIndex, type PolicyObjects } from './rbac-index';

function loadAll<T>(store: Store, kind: { group: string; resource: string; namespaced: boolean }): T[] {
  return store.list(objectPrefix(kind)).items.map((kv) => JSON.parse(kv.value) as T);
}

export function loadPolicy(store: Store): PolicyObjects {
  return {
    roles: loadAll<Role>(store, RBAC_KINDS.roles),
    clusterRoles: loadAll<Role>(store, RBAC_KINDS.clusterroles),
    roleBindings: loadAll<Binding>(store, RBAC_KINDS.rolebindings),
    clusterRoleBindings: loadAll<Binding>(store, RBAC_KINDS.clusterrolebindings),
  };
}

export class RbacCache {
  private index: RbacIndex | undefined;
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly store: Store) {}

  current(): RbacIndex {
    this.index ??= new RbacIndex(loadPolicy(this.store));
    return this.index;
  }

  /** called after every committed write; RBAC ones drop the index and tell listeners (aggregation) */
  afterWrite(rt: { group: string; resource: string }): void {
    if (!isRbacResource(rt)) return;
    this.index = undefined;
    for (const l of this.listeners) l();
  }

  onChange(listener: () => void): () => void {
    this.listeners.push(listener);
    return () => { this.listeners.splice(this.listeners.indexOf(listener), 1); };
  }
}
