import type { V1EndpointSlice, V1Service } from '@kubernetes/client-node';

/** The cluster DNS Service (kube-system/kube-dns, 10.96.0.10): served by server/network/dns, never proxied. */
export const DNS_SERVICE = { namespace: 'kube-system', name: 'kube-dns', clusterIP: '10.96.0.10' } as const;
/** The Service range every component agrees on (docs/networking.md). */
export const SERVICE_CIDR = '10.96.0.0/16';
/** All nodes' pod ranges (node-N → 10.244.N.0/24). */
export const CLUSTER_POD_CIDR = '10.244.0.0/16';
export const CLUSTER_DOMAIN = 'cluster.local';

export type L4Proto = 'tcp' | 'udp' | 'sctp';

export interface Endpoint {
  ip: string;
  port: number;
}

/** One Service port as the proxy and DNS see it. */
export interface ServicePort {
  namespace: string;
  service: string;
  /** the Service port's name ('' when unnamed) */
  portName: string;
  protocol: L4Proto;
  /** undefined for headless Services (clusterIP None) */
  clusterIP?: string;
  port: number;
  nodePort?: number;
  /** ready endpoints, sorted and without duplicates */
  endpoints: Endpoint[];
  /** sessionAffinity ClientIP: how long a client sticks to its endpoint (seconds) */
  affinitySeconds?: number;
}

export function isDnsService(s: { metadata?: { namespace?: string; name?: string } }): boolean {
  return s.metadata?.namespace === DNS_SERVICE.namespace && s.metadata?.name === DNS_SERVICE.name;
}

function protoOf(p: string | undefined): L4Proto {
  const l = (p ?? 'TCP').toLowerCase();
  return l === 'udp' || l === 'sctp' ? l : 'tcp';
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
export function isIPv4(s: string | undefined): s is string {
  const m = s ? IPV4.exec(s) : null;
  return !!m && m.slice(1).every((o) => Number(o) <= 255);
}

/**
 * Ready endpoints of one Service port out of the Service's EndpointSlices (label
 * kubernetes.io/service-name): matched by port name and protocol as kube-proxy does; an endpoint
 * with no `ready` condition counts as ready (the API's documented meaning of nil).
 */
export function readyEndpoints(slices: V1EndpointSlice[], portName: string, protocol: L4Proto): Endpoint[] {
  const seen = new Map<string, Endpoint>();
  for (const slice of slices.filter((s) => s.addressType === 'IPv4')) {
    const port = (slice.ports ?? []).find((p) => (p.name ?? '') === portName && protoOf(p.protocol) === protocol && p.port)?.port;
    if (!port) continue;
    const ips = (slice.endpoints ?? []).filter((ep) => ep.conditions?.ready !== false).flatMap((ep) => ep.addresses ?? []).filter(isIPv4);
    for (const ip of ips) seen.set(`${ip}:${port}`, { ip, port });
  }
  return [...seen.values()].sort((a, b) => (a.ip === b.ip ? a.port - b.port : a.ip < b.ip ? -1 : 1));
}

/** Every port of every Service (ExternalName Services have none), with its ready endpoints. */
export function servicePorts(services: V1Service[], slicesOf: (namespace: string, name: string) => V1EndpointSlice[]): ServicePort[] {
  const out = services.flatMap((s) => portsOf(s, slicesOf));
  const id = (p: ServicePort) => `${p.namespace}/${p.service}/${p.portName}/${p.protocol}`;
  return out.sort((a, b) => id(a).localeCompare(id(b)));
}

/** sessionAffinity ClientIP's timeout (Kubernetes' default 10800 s), or undefined without affinity. */
function affinityOf(s: V1Service): number | undefined {
  if (s.spec?.sessionAffinity !== 'ClientIP') return undefined;
  return s.spec.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? 10800;
}

const servesNodePorts = (type: string | undefined) => type === 'NodePort' || type === 'LoadBalancer';

function portsOf(s: V1Service, slicesOf: (namespace: string, name: string) => V1EndpointSlice[]): ServicePort[] {
  const { namespace = 'default', name: service = '' } = s.metadata ?? {};
  const cip = s.spec?.clusterIP;
  const clusterIP = isIPv4(cip) ? cip : undefined;
  // ExternalName Services have no ports to proxy; without a ClusterIP (not allocated yet, not headless) nothing is served
  if (!service || s.spec?.type === 'ExternalName' || (!clusterIP && cip !== 'None')) return [];
  const slices = slicesOf(namespace, service);
  const nodePorts = servesNodePorts(s.spec?.type);
  const affinitySeconds = affinityOf(s);
  return (s.spec?.ports ?? []).filter((p) => p.port).map((p) => {
    const protocol = protoOf(p.protocol);
    const portName = p.name ?? '';
    return {
      namespace, service, portName, protocol, clusterIP, port: p.port,
      nodePort: nodePorts && p.nodePort ? p.nodePort : undefined,
      endpoints: readyEndpoints(slices, portName, protocol),
      ...(affinitySeconds ? { affinitySeconds } : {}),
    };
  });
}

/**
 * The host address the embedded API server advertises on a pod-network cluster (`kv up --bare`): the
 * `kubernetes` Service's endpoint, on the dummy link kv-api0. Link-local, so it is never routed off the host.
 */
export const API_ADVERTISE_ADDRESS = '169.254.64.1';

/** default/kubernetes's ClusterIP (kube-apiserver's first Service IP; the API server allocates it) */
export const KUBERNETES_CLUSTER_IP = '10.96.0.1';
