/** The Service fields the service rules read, typed, and the cluster's service ranges. */
import { asRecord } from '../storage-kinds/field-errors';
import type { IntRange } from './allocation';
import { parseCidr } from './ipv4';

export const SERVICE_CIDR = '10.96.0.0/16';
export const SERVICE_RANGE = parseCidr(SERVICE_CIDR);
/** network and broadcast addresses are never handed out */
export const CLUSTER_IP_VALUES: IntRange = { first: SERVICE_RANGE.base + 1, last: SERVICE_RANGE.base + SERVICE_RANGE.size - 2 };
export const NODE_PORT_RANGE: IntRange = { first: 30000, last: 32767 };
export const KUBERNETES_SERVICE_IP = '10.96.0.1';

export const SERVICE_TYPES = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'] as const;
export const PROTOCOLS = ['TCP', 'UDP', 'SCTP'] as const;
export const HEADLESS = 'None';

type Obj = Record<string, unknown>;

export interface ServicePort {
  name?: unknown;
  protocol?: unknown;
  port?: unknown;
  targetPort?: unknown;
  nodePort?: unknown;
  appProtocol?: unknown;
}

export function serviceSpec(svc: Obj): Obj {
  svc.spec = asRecord(svc.spec);
  return svc.spec as Obj;
}

export function servicePorts(spec: Obj): ServicePort[] {
  return Array.isArray(spec.ports) ? spec.ports.map((p) => asRecord(p) as ServicePort) : [];
}

/** ClusterIP, NodePort and LoadBalancer Services carry a cluster IP; ExternalName ones do not */
export const usesClusterIP = (spec: Obj) => spec.type !== 'ExternalName';
export const usesNodePorts = (spec: Obj) => spec.type === 'NodePort' || spec.type === 'LoadBalancer';

export function clusterIPsOf(spec: Obj): string[] {
  if (Array.isArray(spec.clusterIPs) && spec.clusterIPs.length) return spec.clusterIPs.map(String);
  return typeof spec.clusterIP === 'string' && spec.clusterIP ? [spec.clusterIP] : [];
}
