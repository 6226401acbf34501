import type { Answer, Question, SoaAnswer } from 'dns-packet';
import { CLUSTER_DOMAIN, isIPv4 } from '../service-model';
import type { DnsModel, DnsService } from './dns-model';

/** TTL of every cluster answer (CoreDNS's kubernetes plugin uses 5 s too). */
export const CLUSTER_TTL = 5;
export const RCODE_NOERROR = 0;
export const RCODE_SERVFAIL = 2;
export const RCODE_NXDOMAIN = 3;

export interface LocalAnswer {
  rcode: typeof RCODE_NOERROR | typeof RCODE_NXDOMAIN;
  answers: Answer[];
  additionals: Answer[];
  authorities: Answer[];
}

function soa(domain: string): SoaAnswer {
  return {
    type: 'SOA', name: domain, ttl: CLUSTER_TTL, class: 'IN',
    data: { mname: `ns.dns.${domain}`, rname: `hostmaster.${domain}`, serial: 1, refresh: 7200, retry: 1800, expire: 86400, minimum: CLUSTER_TTL },
  };
}

const dashedIp = (ip: string) => ip.replace(/\./g, '-');
const undashIp = (label: string) => label.replace(/-/g, '.');

function records(name: string, type: string, ips: string[]): Answer[] {
  return type === 'A' || type === 'ANY' ? ips.map((ip) => ({ type: 'A' as const, name, ttl: CLUSTER_TTL, class: 'IN' as const, data: ip })) : [];
}

/**
 * The answer to one question under the cluster domain, or undefined when the name is not in it
 * (then it is forwarded). Served as the Kubernetes DNS specification says:
 * `<svc>.<ns>.svc.<domain>` A → the ClusterIP, or for a headless Service the ready endpoints;
 * `<a-b-c-d>.<svc>.<ns>.svc.<domain>` → a headless Service's endpoint;
 * `_<port>._<proto>.<svc>.<ns>.svc.<domain>` SRV → named ports; `<a-b-c-d>.<ns>.pod.<domain>` A → that
 * address. Unknown names are NXDOMAIN; known names asked for another type get an empty NOERROR.
 */
export function answerClusterQuestion(model: DnsModel, q: Question, domain = CLUSTER_DOMAIN): LocalAnswer | undefined {
  const name = q.name.toLowerCase().replace(/\.$/, '');
  if (name !== domain && !name.endsWith(`.${domain}`)) return undefined;
  const labels = name === domain ? [] : name.slice(0, -domain.length - 1).split('.');
  const z = zone(domain);
  const kind = labels[labels.length - 1];
  // the domain itself, `svc`, `pod`, `<ns>.svc`, `<ns>.pod` exist (empty non-terminals)
  if (labels.length === 0 || (labels.length <= 2 && (kind === 'svc' || kind === 'pod'))) return z.ok([]);
  if (kind === 'pod') {
    const ip = undashIp(labels[0]!);
    return labels.length === 3 && isIPv4(ip) ? z.ok(records(q.name, q.type, [ip])) : z.nx;
  }
  if (kind !== 'svc') return z.nx;
  const ns = labels[labels.length - 2]!;
  const svcName = labels[labels.length - 3]!;
  const svc = model.get(`${svcName}.${ns}`);
  return svc ? answerService(q, svc, `${svcName}.${ns}.svc.${domain}`, labels.slice(0, -3), z) : z.nx;
}

interface Zone {
  nx: LocalAnswer;
  ok(answers: Answer[], additionals?: Answer[]): LocalAnswer;
}

function zone(domain: string): Zone {
  return {
    nx: { rcode: RCODE_NXDOMAIN, answers: [], additionals: [], authorities: [soa(domain)] },
    ok: (answers, additionals = []) => ({ rcode: RCODE_NOERROR, answers, additionals, authorities: answers.length ? [] : [soa(domain)] }),
  };
}

/** Names under one Service: the Service itself, a headless endpoint, or `_port._proto` SRV. */
function answerService(q: Question, svc: DnsService, svcFqdn: string, rest: string[], z: Zone): LocalAnswer {
  if (rest.length === 0) return z.ok(records(q.name, q.type, svc.clusterIP ? [svc.clusterIP] : svc.endpoints));
  if (rest.length === 1) {
    // an endpoint of a headless Service, named by its dashed address
    const ip = undashIp(rest[0]!);
    return !svc.clusterIP && svc.endpoints.includes(ip) ? z.ok(records(q.name, q.type, [ip])) : z.nx;
  }
  const [portLabel, protoLabel] = rest;
  if (rest.length !== 2 || !portLabel!.startsWith('_') || !protoLabel!.startsWith('_')) return z.nx;
  const port = svc.ports.find((p) => p.name === portLabel!.slice(1) && p.protocol === protoLabel!.slice(1));
  if (!port) return z.nx;
  if (q.type !== 'SRV' && String(q.type) !== 'ANY') return z.ok([]);
  const targets = svc.clusterIP ? [{ host: svcFqdn, ip: svc.clusterIP }] : svc.endpoints.map((ip) => ({ host: `${dashedIp(ip)}.${svcFqdn}`, ip }));
  const answers: Answer[] = targets.map((t) => ({
    type: 'SRV', name: q.name, ttl: CLUSTER_TTL, class: 'IN',
    data: { priority: 0, weight: Math.floor(100 / targets.length), port: port.port, target: t.host },
  }));
  return z.ok(answers, targets.flatMap((t) => records(t.host, 'A', [t.ip])));
}
