/**
 * `kv up` creates the KubeVirt CR (kubevirt/kubevirt) as KubeVirt's operator install leaves it, once
 * virt-api's admission is up to check it. An existing CR (a restart, a user's changes) is kept.
 */
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { defaultKubeVirt, KUBEVIRT_CR_NAMESPACE } from '../../lib/kubevirt/kubevirt-cr';
import { isConflict } from '../kube/api-errors';

export async function ensureKubeVirtCR(kc: KubeConfig): Promise<'created' | 'kept'> {
  try {
    await kc.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
      group: 'kubevirt.io', version: 'v1', plural: 'kubevirts', namespace: KUBEVIRT_CR_NAMESPACE, body: defaultKubeVirt(),
    });
    return 'created';
  } catch (err) {
    if (isConflict(err)) return 'kept';
    throw err;
  }
}
