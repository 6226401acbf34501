/**
 * The least-privilege ClusterRoles of KubeVirt's components, from the same manifests cluster mode
 * installs (deploy/cluster/rbac-*.yaml), bound to their ServiceAccounts; plus what virt-api needs
 * only in embedded mode, where it registers its own APIServices, webhooks and Service (cluster
 * mode ships those as static manifests).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { AUTOUPDATE, BOOTSTRAPPING, clusterRole, rule } from './bootstrap-policy';
import { RBAC_GROUP, type Binding, type Role } from './policy';

const MANIFESTS = ['rbac-controller.yaml', 'rbac-handler.yaml', 'rbac-apiserver.yaml'];
const DEPLOY_DIR = fileURLToPath(new URL('../../../deploy/cluster/', import.meta.url));
const UPSERT = ['get', 'create', 'update'];

export const EMBEDDED_VIRT_API_ROLE: Role = clusterRole('kubevirt-apiserver:embedded-registration', [
  rule(UPSERT, [''], ['namespaces', 'services', 'endpoints']),
  rule(UPSERT, ['apiregistration.k8s.io'], ['apiservices']),
  rule(UPSERT, ['admissionregistration.k8s.io'], ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations']),
]);

const EMBEDDED_VIRT_API_BINDING: Binding = {
  metadata: { name: EMBEDDED_VIRT_API_ROLE.metadata.name, labels: { ...BOOTSTRAPPING }, annotations: { [AUTOUPDATE]: 'true' } },
  roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: EMBEDDED_VIRT_API_ROLE.metadata.name },
  subjects: [{ kind: 'ServiceAccount', name: 'kubevirt-apiserver', namespace: 'kubevirt' }],
};

interface Manifest { kind?: string; metadata?: { name?: string } }

/** the components' ClusterRoles and ClusterRoleBindings (annotated for reconciliation like the bootstrap policy) */
export function componentPolicy(dir = DEPLOY_DIR): { roles: Role[]; bindings: Binding[] } {
  const roles: Role[] = [EMBEDDED_VIRT_API_ROLE];
  const bindings: Binding[] = [EMBEDDED_VIRT_API_BINDING];
  for (const file of MANIFESTS) {
    const path = `${dir}${file}`;
    if (!existsSync(path)) continue;
    for (const doc of parseAllDocuments(readFileSync(path, 'utf8'))) {
      const obj = doc.toJS() as Manifest | null;
      if (!obj?.metadata?.name) continue;
      const metadata = { name: obj.metadata.name, labels: { ...BOOTSTRAPPING }, annotations: { [AUTOUPDATE]: 'true' } };
      if (obj.kind === 'ClusterRole') roles.push({ ...(obj as Role), metadata });
      else if (obj.kind === 'ClusterRoleBinding') bindings.push({ ...(obj as Binding), metadata });
    }
  }
  return { roles, bindings };
}
