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
    const kube = this.services.get('default/kubernetes');
    if (kube && !services.some((s) => s.metadata?.uid === kube.metadata?.uid)) services.push(kube);
    const ep = this.endpoints.get('default/kubernetes');
    const host = ep?.subsets?.[0]?.addresses?.[0]?.ip;
    const port = ep?.subsets?.[0]?.ports?.[0]?.port;
    return { services, kubernetesEndpoint: host && port ? { host, port } : undefined };
  }
}
