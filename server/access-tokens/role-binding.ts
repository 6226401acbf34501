/**
 * The role binding of a `kv token`: a ClusterRoleBinding (all namespaces) or a RoleBinding (one
 * namespace) from the token's ServiceAccount to the ClusterRole view, edit or admin.
 */
import { RbacAuthorizationV1Api, type KubeConfig, type V1RoleRef, type RbacV1Subject } from '@kubernetes/client-node';
import { isNotFound } from '../kube/api-errors';

export type TokenRole = 'view' | 'edit' | 'admin';
export const TOKEN_ROLES: readonly TokenRole[] = ['view', 'edit', 'admin'];

export interface BindingSpec { name: string; role: TokenRole; namespace?: string; subject: { namespace: string; name: string }; labels: Record<string, string> }

export async function createRoleBinding(kc: KubeConfig, b: BindingSpec): Promise<void> {
  const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  const roleRef: V1RoleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: b.role };
  const subjects: RbacV1Subject[] = [{ kind: 'ServiceAccount', namespace: b.subject.namespace, name: b.subject.name }];
  const metadata = { name: b.name, labels: b.labels };
  if (b.namespace) await rbac.createNamespacedRoleBinding({ namespace: b.namespace, body: { metadata, roleRef, subjects } });
  else await rbac.createClusterRoleBinding({ body: { metadata, roleRef, subjects } });
}

/** deletes the binding; one that is not there (or RBAC not served) is nothing to delete */
export async function deleteRoleBinding(kc: KubeConfig, name: string, namespace: string | undefined): Promise<void> {
  const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  try {
    if (namespace) await rbac.deleteNamespacedRoleBinding({ name, namespace });
    else await rbac.deleteClusterRoleBinding({ name });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
