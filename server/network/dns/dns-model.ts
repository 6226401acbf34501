import type { V1EndpointSlice, V1Service } from '@kubernetes/client-node';
import { isIPv4, type L4Proto } from '../service-model';

export interface DnsPort {
  name: string;
  protocol: L4Proto;
  port: number;
}

/** One Service as DNS answers for it. */
export interface DnsService {
  /** the ClusterIP; undefined for a headless Service */
  clusterIP?: string;
  /** ready endpoint addresses (headless Services answer with these) */
  endpoints: string[];
  ports: DnsPort[];
}

/** Services by `<name>.<namespace>` (lower case). */
export type DnsModel = ReadonlyMap<string, DnsService>;

function ready(slices: V1EndpointSlice[]): string[] {
  const ips = slices
    .filter((s) => s.addressType === 'IPv4')
    .flatMap((s) => s.endpoints ?? [])
    .filter((ep) => ep.conditions?.ready !== false)
    .flatMap((ep) => ep.addresses ?? [])
    .filter(isIPv4);
  return [...new Set(ips)].sort();
}

/** The DNS view of the cluster's Services (ExternalName Services are not served). */
export function buildDnsModel(services: V1Service[], slicesOf: (namespace: string, name: string) => V1EndpointSlice[]): DnsModel {
  const m = new Map<string, DnsService>();
  for (const s of services) {
    const ns = s.metadata?.namespace;
    const name = s.metadata?.name;
    if (!ns || !name || s.spec?.type === 'ExternalName') continue;
    const cip = s.spec?.clusterIP;
    if (!isIPv4(cip) && cip !== 'None') continue;
    m.set(`${name}.${ns}`.toLowerCase(), {
      clusterIP: isIPv4(cip) ? cip : undefined,
      endpoints: cip === 'None' ? ready(slicesOf(ns, name)) : [],
      ports: (s.spec?.ports ?? []).filter((p) => p.name && p.port).map((p) => ({ name: p.name!.toLowerCase(), protocol: (p.protocol ?? 'TCP').toLowerCase() as L4Proto, port: p.port })),
    });
  }
  return m;
}
