import type { ApiContext } from '../rest/api-context';
import { startPerNamespaceObject } from './per-namespace-object';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
const ANNOTATION = 'kubernetes.io/description';
const DESCRIPTION = 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

/** kube-controller-manager's root-ca-cert-publisher: ConfigMap kube-root-ca.crt (ca.crt) in every namespace, kept equal to the API server's CA */
export function startRootCAPublisher(ctx: ApiContext): () => void {
  const caPem = ctx.rootCaPem;
  if (!caPem) return () => undefined;
  return startPerNamespaceObject(ctx, {
    controller: 'root-ca-cert-publisher',
    resource: 'configmaps',
    name: ROOT_CA_CONFIGMAP,
    desired: () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ROOT_CA_CONFIGMAP, annotations: { [ANNOTATION]: DESCRIPTION } }, data: { 'ca.crt': caPem } }),
    repair: (cm) => (cm.data?.['ca.crt'] === caPem && Object.keys(cm.data ?? {}).length === 1 ? undefined : { ...cm, data: { 'ca.crt': caPem } }),
  });
}
