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
  for (const slice of slices) {
    if (slice.addressType !== 'IPv4') continue;
    for (const p of slice.ports ?? []) {
      if ((p.name ?? '') !== portName || protoOf(p.protocol) !== protocol || !p.port) continue;
      for (const ep of slice.endpoints ?? []) {
        if (ep.conditions?.ready === false) continue;
        for (const ip of ep.addresses ?? []) if (isIPv4(ip)) seen.set(`${ip}:${p.port}`, { ip, port: p.port });
      }
    }
  }
  return [...seen.values()].sort((a, b) => (a.ip === b.ip ? a.port - b.port : a.ip < b.ip ? -1 : 1));
}

/** Every port of every Service (ExternalName Services have none), with its ready endpoints. */
export function servicePorts(services: V1Service[], slicesOf: (namespace: string, name: string) => V1EndpointSlice[]): ServicePort[] {
  const out: ServicePort[] = [];
  for (const s of services) {
    const namespace = s.metadata?.namespace ?? 'default';
    const service = s.metadata?.name ?? '';
    if (!service || s.spec?.type === 'ExternalName') continue;
    const cip = s.spec?.clusterIP;
    const clusterIP = isIPv4(cip) ? cip : undefined;
    if (!clusterIP && cip !== 'None') continue; // not allocated yet
    const slices = slicesOf(namespace, service);
    const nodePorts = s.spec?.type === 'NodePort' || s.spec?.type === 'LoadBalancer';
    for (const p of s.spec?.ports ?? []) {
      if (!p.port) continue;
      const protocol = protoOf(p.protocol);
      const portName = p.name ?? '';
      out.push({
        namespace, service, portName, protocol, clusterIP, port: p.port,
        nodePort: nodePorts && p.nodePort ? p.nodePort : undefined,
        endpoints: readyEndpoints(slices, portName, protocol),
      });
    }
  }
  return out.sort((a, b) => `${a.namespace}/${a.service}/${a.portName}/${a.protocol}`.localeCompare(`${b.namespace}/${b.service}/${b.portName}/${b.protocol}`));
}
