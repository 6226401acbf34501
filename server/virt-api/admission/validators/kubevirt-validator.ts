/** The KubeVirt CR's configuration on create and update (KubeVirt's kubevirt-update-validator). */
import { kubeVirtConfigurationCauses, type KubeVirt } from '../../../../lib/kubevirt/kubevirt-cr';
import { invalid, type Cause } from '../cause';

export function validateKubeVirt(object: unknown): Cause[] {
  const cr = (typeof object === 'object' && object !== null ? object : {}) as KubeVirt;
  return kubeVirtConfigurationCauses(cr.spec?.configuration).map((c) => invalid(c.field, c.message));
}
