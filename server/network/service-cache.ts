import type { KubeConfig, V1EndpointSlice, V1Service } from '@kubernetes/client-node';
import { Informer } from '../kube/informer';
import { servicePorts, type ServicePort } from './service-model';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** Services and EndpointSlices of all namespaces, cached by informers; `onChange` fires on every event. */
export class ServiceCache {
  readonly services: Informer<V1Service>;
  readonly slices: Informer<V1EndpointSlice>;

  constructor(kc: KubeConfig, onChange: () => void) {
    this.services = new Informer<V1Service>({ kc, path: '/api/v1/services' });
    this.slices = new Informer<V1EndpointSlice>({
      kc,
      path: '/apis/discovery.k8s.io/v1/endpointslices',
      indexers: { service: (s) => [s.metadata?.namespace && s.metadata.labels?.[SERVICE_NAME_LABEL] ? `${s.metadata.namespace}/${s.metadata.labels[SERVICE_NAME_LABEL]}` : undefined] },
    });
    const h = { add: onChange, update: onChange, delete: onChange };
    this.services.on(h);
    this.slices.on(h);
  }

  /** Run both informers until the signal aborts; resolves once both have listed (or the signal aborts) with `running`, which resolves at the stop. */
  async start(signal: AbortSignal): Promise<{ running: Promise<void> }> {
    const running = Promise.all([this.services.run(signal), this.slices.run(signal)]).then(() => undefined);
    await Promise.all([this.services.waitForSync(signal), this.slices.waitForSync(signal)]);
    return { running };
  }

  slicesOf(namespace: string, name: string): V1EndpointSlice[] {
    return this.slices.byIndex('service', `${namespace}/${name}`);
  }

  ports(filter: (s: V1Service) => boolean = () => true): ServicePort[] {
    return servicePorts(this.services.list(filter), (ns, n) => this.slicesOf(ns, n));
  }
}
