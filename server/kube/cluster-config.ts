/**
 * The cluster's live KubeVirt configuration: an informer on the KubeVirt CR in namespace kubevirt
 * (KubeVirt's ClusterConfig). `configuration()` is always the latest spec.configuration (empty
 * until the CR exists), so a `kubectl patch kubevirt` takes effect without a restart; `onChange`
 * tells a controller to look again.
 */
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import { KUBEVIRT_CR_NAME, KUBEVIRT_CR_NAMESPACE, type KubeVirt, type KubeVirtConfiguration } from '../../lib/kubevirt/kubevirt-cr';
import { KubeVirtResource, resourcePath } from '../../lib/kubevirt/resources';
import { Informer } from './informer';

/** lib's KubeVirt read as client-node's object (timestamps stay the strings the wire has) */
type KubeVirtObject = KubeVirt & KubernetesObject;

export class ClusterConfig {
  readonly informer: Informer<KubeVirtObject>;

  constructor(kc: KubeConfig) {
    this.informer = new Informer<KubeVirtObject>({ kc, path: resourcePath(KubeVirtResource, { namespace: KUBEVIRT_CR_NAMESPACE }) });
  }

  /** The KubeVirt CR (`kubevirt/kubevirt`, or the only one in the namespace as the operator allows one). */
  kubevirt(): KubeVirt | undefined {
    return this.informer.get(`${KUBEVIRT_CR_NAMESPACE}/${KUBEVIRT_CR_NAME}`) ?? this.informer.list()[0];
  }

  configuration(): KubeVirtConfiguration {
    return this.kubevirt()?.spec?.configuration ?? {};
  }

  onChange(fn: () => void): () => void {
    return this.informer.on({ add: fn, update: fn, delete: fn });
  }

  run(signal: AbortSignal): Promise<void> {
    return this.informer.run(signal);
  }
}
