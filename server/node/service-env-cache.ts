/**
 * The kubelet's cache of what a container's service env needs: every Service (the Pod's namespace's
 * for the service links, default/kubernetes for KUBERNETES_SERVICE_*) and the `kubernetes`
 * Endpoints, kept by informers as kube's kubelet keeps its Service lister. Before it, every
 * container start read them from the API server: a Service LIST and two GETs per VMI start.
 */
import type { KubeConfig, V1Endpoints, V1Service } from '@kubernetes/client-node';
import { Informer } from '../kube/informer';
import type { EnvSources } from './pod-env';

export type ServiceEnvSnapshot = Pick<EnvSources, 'services' | 'kubernetesEndpoint'>;

/**
 * The service env's inputs from what was read: the namespace's Services (empty without service
 * links) plus default/kubernetes once, and that Service's endpoint from its Endpoints. The cache and
 * the kubelet's reads from the API server (before the cache has synced) both build it here.
 */
export function serviceEnvSnapshot(services: V1Service[], kube: V1Service | undefined, ep: V1Endpoints | undefined): ServiceEnvSnapshot {
  const all = kube && !services.some((s) => s.metadata?.uid === kube.metadata?.uid) ? [...services, kube] : services;
  const host = ep?.subsets?.[0]?.addresses?.[0]?.ip;
  const port = ep?.subsets?.[0]?.ports?.[0]?.port;
  return { services: all, kubernetesEndpoint: host && port ? { host, port } : undefined };
}

export interface ServiceEnvSource {
  /** the Services and endpoint a Pod of `namespace` sees; undefined until the caches have synced */
  snapshot(namespace: string, serviceLinks: boolean): ServiceEnvSnapshot | undefined;
}

export class ServiceEnvCache implements ServiceEnvSource {
  private readonly services: Informer<V1Service>;
  private readonly endpoints: Informer<V1Endpoints>;

  constructor(kc: KubeConfig) {
    this.services = new Informer<V1Service>({ kc, path: '/api/v1/services', indexers: { namespace: (s) => [s.metadata?.namespace] } });
    this.endpoints = new Informer<V1Endpoints>({ kc, path: '/api/v1/namespaces/default/endpoints', fieldSelector: 'metadata.name=kubernetes' });
  }

  run(signal: AbortSignal): Promise<void> {
    return Promise.all([this.services.run(signal), this.endpoints.run(signal)]).then(() => undefined);
  }

  snapshot(namespace: string, serviceLinks: boolean): ServiceEnvSnapshot | undefined {
    if (!this.services.hasSynced() || !this.endpoints.hasSynced()) return undefined;
    const services = serviceLinks ? this.services.byIndex('namespace', namespace) : [];
    return serviceEnvSnapshot(services, this.services.get('default/kubernetes'), this.endpoints.get('default/kubernetes'));
  }
}
