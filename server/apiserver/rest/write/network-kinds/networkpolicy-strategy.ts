/**
 * The registry strategy of networking.k8s.io/v1 NetworkPolicy: kube's defaults (applied to every
 * write, as kube defaults every decoded body) and validation.
 */
import type { Strategy } from '../strategies';
import { asRecord } from '../storage-kinds/field-errors';
import { validateNetworkPolicy, validateNetworkPolicyUpdate } from './networkpolicy-validation';

type Obj = Record<string, unknown>;

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function defaultPorts(rules: unknown): void {
  for (const rule of list(rules)) {
    for (const port of list(asRecord(rule).ports)) {
      if (port !== null && typeof port === 'object' && !Array.isArray(port)) (port as Obj).protocol ??= 'TCP';
    }
  }
}

/** SetDefaults_NetworkPolicy: policyTypes is Ingress, plus Egress when there are egress rules; ports are TCP */
export function defaultNetworkPolicy(np: Obj): void {
  np.spec = asRecord(np.spec);
  const spec = np.spec as Obj;
  spec.podSelector ??= {};
  defaultPorts(spec.ingress);
  defaultPorts(spec.egress);
  if (list(spec.policyTypes).length === 0) spec.policyTypes = list(spec.egress).length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
}

export const NETWORK_POLICY_STRATEGY: Strategy = {
  prepareForCreate: defaultNetworkPolicy,
  prepareForUpdate: defaultNetworkPolicy,
  validate: validateNetworkPolicy,
  validateUpdate: validateNetworkPolicyUpdate,
};
