/**
 * PURE: kube's ValidateResourceQuota, for the parts served here: resource names in spec.hard,
 * non-negative (and, for object counts, whole) quantities, and the scopes this server supports.
 */
import { parseQuantity } from '../../../../../lib/kubevirt/quantity';
import type { StatusCause } from '../../status-error';
import { asRecord, invalidValue, notSupported } from '../storage-kinds/field-errors';

/** kube's standard quota resource names (a name without `/` must be one of them) */
const STANDARD = new Set([
  'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers', 'cpu', 'memory', 'ephemeral-storage', 'storage',
  'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage',
]);
const HUGEPAGES = /^(requests\.|limits\.)?hugepages-/;
/** counts of objects: must be whole numbers */
const INTEGER = new Set(['pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers']);
/** a qualified name (`prefix/name`) as kube's IsQualifiedName accepts it */
const QUALIFIED = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** the scopes served; PriorityClass and CrossNamespacePodAffinity are kube scopes this server refuses */
export const SUPPORTED_SCOPES = ['BestEffort', 'NotBestEffort', 'NotTerminating', 'Terminating'] as const;
const KUBE_SCOPES = [...SUPPORTED_SCOPES, 'CrossNamespacePodAffinity', 'PriorityClass'];
/** resources a scoped quota may limit (kube: pod compute resources and pods) */
const POD_SCOPED = /^(pods|count\/pods|cpu|memory|ephemeral-storage|(requests|limits)\.(cpu|memory|ephemeral-storage)|(requests\.|limits\.)?hugepages-.*)$/;

export function validateResourceQuota(obj: unknown): StatusCause[] {
  const causes: StatusCause[] = [];
  const spec = asRecord(asRecord(obj).spec);
  const hard = asRecord(spec.hard);
  if (spec.hard !== undefined && spec.hard !== null && hard !== spec.hard) causes.push(invalidValue('spec.hard', spec.hard, 'must be a map of resource names to quantities'));
  if (spec.scopes !== undefined && spec.scopes !== null && !Array.isArray(spec.scopes)) causes.push(invalidValue('spec.scopes', spec.scopes, 'must be a list of scopes'));
  for (const [name, q] of Object.entries(hard)) {
    const field = `spec.hard[${name}]`;
    if (name.includes('/') ? !QUALIFIED.test(name) : !STANDARD.has(name) && !HUGEPAGES.test(name)) {
      causes.push(invalidValue(field, name, 'must be a standard resource for quota'));
      continue;
    }
    const v = parseQuantity(q);
    if (v === undefined) continue; // the decode step answers malformed quantities (400)
    if (v < 0) causes.push(invalidValue(field, String(q), 'must be greater than or equal to 0'));
    else if (INTEGER.has(name) && !Number.isInteger(v)) causes.push(invalidValue(field, String(q), 'must be an integer'));
  }
  const scopes = Array.isArray(spec.scopes) ? (spec.scopes as unknown[]) : [];
  scopes.forEach((s, i) => {
    if (!KUBE_SCOPES.includes(String(s))) causes.push(notSupported(`spec.scopes[${i}]`, s, KUBE_SCOPES));
    else if (!(SUPPORTED_SCOPES as readonly string[]).includes(String(s))) {
      causes.push(notSupported(`spec.scopes[${i}]`, s, SUPPORTED_SCOPES));
    }
  });
  if (scopes.includes('Terminating') && scopes.includes('NotTerminating')) causes.push(invalidValue('spec.scopes', scopes, 'conflicting scopes'));
  if (scopes.includes('BestEffort') && scopes.includes('NotBestEffort')) causes.push(invalidValue('spec.scopes', scopes, 'conflicting scopes'));
  if (scopes.length && Object.keys(hard).some((name) => !POD_SCOPED.test(name))) {
    causes.push(invalidValue('spec.scopes', scopes, 'unsupported scope applied to resource'));
  }
  if (spec.scopeSelector !== undefined && spec.scopeSelector !== null) {
    causes.push({ reason: 'FieldValueForbidden', field: 'spec.scopeSelector', message: 'Forbidden: scopeSelector is not supported by this API server (use spec.scopes)' });
  }
  return causes;
}
