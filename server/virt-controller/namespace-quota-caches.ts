/**
 * The ResourceQuota and Namespace caches of one virt-controller process, shared by the VMI and
 * migration controllers (launcher Pods' automatic resource limits, migration policies' namespace
 * selectors, quota-refused migrations): one list+watch of each, not one per controller, as
 * KubeVirt's virt-controller shares one informer factory. Running it again while it runs (each
 * controller's run() does) starts nothing new.
 */
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import { Informer } from '../kube/informer';
import type { QuotaLike } from './vmi/auto-resource-limits';

export class NamespaceQuotaCaches {
  readonly quotas: Informer<QuotaLike & KubernetesObject>;
  readonly namespaces: Informer<KubernetesObject>;
  private running?: Promise<void>;

  constructor(kc: KubeConfig) {
    this.quotas = new Informer({ kc, path: '/api/v1/resourcequotas' });
    this.namespaces = new Informer({ kc, path: '/api/v1/namespaces' });
  }

  /** runs both informers until the first caller's signal aborts; later callers share that run */
  run(signal: AbortSignal): Promise<void> {
    this.running ??= Promise.all([this.quotas.run(signal), this.namespaces.run(signal)]).then(() => undefined);
    return this.running;
  }
}
