/** NetworkPolicy validation (kube's pkg/apis/networking/validation): pure functions returning the causes of a 422. */
import type { StatusCause } from '../../status-error';
import { asRecord, asString, forbidden, invalidValue, notSupported, required } from '../storage-kinds/field-errors';
import { isStrictSubset, parseCidr } from './cidr';
import { networkPolicyPortCauses } from './port-validation';
import { labelSelectorCauses } from './selector-validation';

const POLICY_TYPES = ['Ingress', 'Egress'];
const CIDR_MSG = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** ValidateIPBlock; CIDRs the stored object already had are not judged again (kube's AllowCIDRsEvenIfInvalid) */
function ipBlockCauses(value: unknown, path: string, allowed: ReadonlySet<string>): StatusCause[] {
  const b = asRecord(value);
  const cidrText = asString(b.cidr) ?? '';
  if (!cidrText) return [required(`${path}.cidr`)];
  const cidr = parseCidr(cidrText);
  if (!cidr) return allowed.has(cidrText) ? [] : [invalidValue(`${path}.cidr`, cidrText, CIDR_MSG)];
  return list(b.except).flatMap((e, i) => {
    const text = typeof e === 'string' ? e : String(e);
    const except = parseCidr(text);
    if (!except) return allowed.has(text) ? [] : [invalidValue(`${path}.except[${i}]`, text, CIDR_MSG)];
    return isStrictSubset(except, cidr) ? [] : [invalidValue(`${path}.except[${i}]`, text, 'must be a strict subset of `cidr`')];
  });
}

function peerCauses(value: unknown, path: string, allowed: ReadonlySet<string>): StatusCause[] {
  const peer = asRecord(value);
  const present = (k: string) => peer[k] !== undefined && peer[k] !== null;
  const causes: StatusCause[] = [];
  if (present('podSelector')) causes.push(...labelSelectorCauses(peer.podSelector, `${path}.podSelector`));
  if (present('namespaceSelector')) causes.push(...labelSelectorCauses(peer.namespaceSelector, `${path}.namespaceSelector`));
  if (present('ipBlock')) causes.push(...ipBlockCauses(peer.ipBlock, `${path}.ipBlock`, allowed));
  const count = ['podSelector', 'namespaceSelector', 'ipBlock'].filter(present).length;
  if (count === 0) causes.push(required(path, 'must specify a peer'));
  else if (count > 1 && present('ipBlock')) causes.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return causes;
}

function ruleCauses(rule: unknown, path: string, peersField: 'from' | 'to', allowed: ReadonlySet<string>): StatusCause[] {
  const r = asRecord(rule);
  return [
    ...list(r.ports).flatMap((p, i) => networkPolicyPortCauses(p, `${path}.ports[${i}]`)),
    ...list(r[peersField]).flatMap((p, i) => peerCauses(p, `${path}.${peersField}[${i}]`, allowed)),
  ];
}

function policyTypeCauses(value: unknown): StatusCause[] {
  const types = list(value);
  if (types.length > POLICY_TYPES.length) return [invalidValue('spec.policyTypes', types, 'may not specify more than two policyTypes')];
  return types.flatMap((t, i) => (POLICY_TYPES.includes(String(t)) ? [] : [notSupported(`spec.policyTypes[${i}]`, t, POLICY_TYPES)]));
}

function specCauses(specValue: unknown, allowed: ReadonlySet<string>): StatusCause[] {
  const spec = asRecord(specValue);
  return [
    ...labelSelectorCauses(spec.podSelector ?? {}, 'spec.podSelector'),
    ...list(spec.ingress).flatMap((r, i) => ruleCauses(r, `spec.ingress[${i}]`, 'from', allowed)),
    ...list(spec.egress).flatMap((r, i) => ruleCauses(r, `spec.egress[${i}]`, 'to', allowed)),
    ...policyTypeCauses(spec.policyTypes),
  ];
}

export function validateNetworkPolicy(np: unknown): StatusCause[] {
  return specCauses(asRecord(np).spec, new Set());
}

/** every ipBlock CIDR and except of a stored policy */
function storedCidrs(np: unknown): Set<string> {
  const spec = asRecord(asRecord(np).spec);
  const peers = [...list(spec.ingress).flatMap((r) => list(asRecord(r).from)), ...list(spec.egress).flatMap((r) => list(asRecord(r).to))];
  const blocks = peers.map((p) => asRecord(asRecord(p).ipBlock));
  return new Set(blocks.flatMap((b) => [String(b.cidr ?? ''), ...list(b.except).map(String)]));
}

export function validateNetworkPolicyUpdate(np: unknown, old: unknown): StatusCause[] {
  return specCauses(asRecord(np).spec, storedCidrs(old));
}
