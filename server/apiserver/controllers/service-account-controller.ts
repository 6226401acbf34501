import type { ApiContext } from '../rest/api-context';
import { startPerNamespaceObject } from './per-namespace-object';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

/** kube-controller-manager's ServiceAccount controller: ServiceAccount `default` in every namespace */
export function startServiceAccountController(ctx: ApiContext): () => void {
  return startPerNamespaceObject(ctx, {
    controller: 'serviceaccount',
    resource: 'serviceaccounts',
    name: DEFAULT_SERVICE_ACCOUNT,
    desired: () => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: DEFAULT_SERVICE_ACCOUNT } }),
  });
}
