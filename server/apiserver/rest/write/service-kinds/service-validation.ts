/**
 * The Service registry strategy's Validate and ValidateUpdate (kube's pkg/apis/core/validation),
 * reduced to the rules users meet: type, ports, cluster IPs, affinity, traffic policies, and the
 * cluster IP staying put once set. Pure: causes in, nothing thrown.
 */
import type { StatusCause } from '../../status-error';
import { asRecord, forbidden, invalidValue, notSupported, required } from '../storage-kinds/field-errors';
import { goStringSlice } from './go-values';
import { parseIpv4 } from './ipv4';
import { duplicatePortCauses, portCauses } from './port-rules';
import { HEADLESS, SERVICE_TYPES, clusterIPsOf, servicePorts, usesClusterIP, usesNodePorts } from './service-fields';

type Obj = Record<string, unknown>;

const IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const AFFINITIES = ['ClientIP', 'None'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];

function clusterIPCauses(spec: Obj): StatusCause[] {
  const ips = clusterIPsOf(spec);
  if (spec.type === 'ExternalName') return ips.length ? [forbidden('spec.clusterIPs', 'may not be set for ExternalName services')] : [];
  if (typeof spec.clusterIP === 'string' && ips.length && spec.clusterIP !== ips[0]) {
    return [rawInvalid('spec.clusterIPs', goStringSlice(ips), 'first value must match `clusterIP`')];
  }
  return ips.flatMap((ip, i) => (ip === HEADLESS && i === 0) || parseIpv4(ip) !== undefined ? [] : [invalidValue(`spec.clusterIPs[${i}]`, ip, IP_MSG)]);
}

function portsCauses(spec: Obj): StatusCause[] {
  const ports = servicePorts(spec);
  const headless = clusterIPsOf(spec)[0] === HEADLESS;
  if (!ports.length && usesClusterIP(spec) && !headless) return [required('spec.ports')];
  const causes = ports.flatMap((p, i) => portCauses(p, `spec.ports[${i}]`, ports.length > 1));
  causes.push(...duplicatePortCauses(ports));
  if (!usesNodePorts(spec)) {
    ports.forEach((p, i) => {
      if (p.nodePort !== undefined && p.nodePort !== 0) causes.push(forbidden(`spec.ports[${i}].nodePort`, `may not be used when \`type\` is '${String(spec.type)}'`));
    });
  }
  return causes;
}

function policyCauses(spec: Obj): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!AFFINITIES.includes(String(spec.sessionAffinity))) causes.push(notSupported('spec.sessionAffinity', spec.sessionAffinity, AFFINITIES));
  if (spec.externalTrafficPolicy !== undefined && !TRAFFIC_POLICIES.includes(String(spec.externalTrafficPolicy))) {
    causes.push(notSupported('spec.externalTrafficPolicy', spec.externalTrafficPolicy, TRAFFIC_POLICIES));
  }
  if (spec.internalTrafficPolicy !== undefined && !TRAFFIC_POLICIES.includes(String(spec.internalTrafficPolicy))) {
    causes.push(notSupported('spec.internalTrafficPolicy', spec.internalTrafficPolicy, TRAFFIC_POLICIES));
  }
  return causes;
}

function externalNameCauses(spec: Obj): StatusCause[] {
  if (spec.type !== 'ExternalName') return [];
  return typeof spec.externalName === 'string' && spec.externalName ? [] : [required('spec.externalName')];
}

export function validateService(svc: unknown): StatusCause[] {
  const spec = asRecord(asRecord(svc).spec);
  if (!SERVICE_TYPES.includes(spec.type as never)) return [notSupported('spec.type', spec.type, SERVICE_TYPES)];
  return [...clusterIPCauses(spec), ...portsCauses(spec), ...policyCauses(spec), ...externalNameCauses(spec)];
}

/** a set cluster IP may not change, except when the Service turns into or out of ExternalName */
export function clusterIPChangeCauses(spec: Obj, oldSpec: Obj): StatusCause[] {
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  const ips = clusterIPsOf(spec);
  const oldIps = clusterIPsOf(oldSpec);
  if (oldIps.length && !ips.length) return [rawInvalid('spec.clusterIPs[0]', goStringSlice(ips), 'primary clusterIP can not be unset')];
  return oldIps.flatMap((ip, i) => (i < ips.length && ips[i] !== ip ? [rawInvalid(`spec.clusterIPs[${i}]`, goStringSlice(ips), 'may not change once set')] : []));
}

export function validateServiceUpdate(svc: unknown, old: unknown): StatusCause[] {
  const causes = validateService(svc);
  causes.push(...clusterIPChangeCauses(asRecord(asRecord(svc).spec), asRecord(asRecord(old).spec)));
  return causes;
}

/** Invalid with a bad value already printed Go-style */
export function rawInvalid(field: string, printed: string, detail: string): StatusCause {
  return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${printed}: ${detail}` };
}
