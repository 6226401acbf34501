import type { CoreV1Api, V1Service } from '@kubernetes/client-node';
import { isConflict, isNotFound } from '../../kube/api-errors';
import { DNS_SERVICE } from '../service-model';

/** The kube-system/kube-dns Service users see (no selector: the DNS server itself answers on its ClusterIP). */
export function kubeDnsService(): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: DNS_SERVICE.name, namespace: DNS_SERVICE.namespace, labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/name': 'CoreDNS' } },
    spec: {
      type: 'ClusterIP',
      clusterIP: DNS_SERVICE.clusterIP,
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
      ],
    },
  };
}

/** Create kube-system (if missing) and the kube-dns Service, or bring its ports back in line. */
export async function upsertKubeDnsService(core: CoreV1Api): Promise<void> {
  const want = kubeDnsService();
  await core.createNamespace({ body: { metadata: { name: DNS_SERVICE.namespace } } }).catch((err: unknown) => {
    if (!isConflict(err)) throw err;
  });
  const have = await core.readNamespacedService({ namespace: DNS_SERVICE.namespace, name: DNS_SERVICE.name }).catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
  if (!have) {
    await core.createNamespacedService({ namespace: DNS_SERVICE.namespace, body: want });
    return;
  }
  const ports = (have.spec?.ports ?? []).map((p) => `${p.name}/${p.port}/${p.protocol}`).sort().join(',');
  const wantPorts = want.spec!.ports!.map((p) => `${p.name}/${p.port}/${p.protocol}`).sort().join(',');
  if (ports === wantPorts && !have.spec?.selector) return;
  await core.replaceNamespacedService({
    namespace: DNS_SERVICE.namespace, name: DNS_SERVICE.name,
    body: { ...have, spec: { ...have.spec, selector: undefined, ports: want.spec!.ports } },
  });
}
