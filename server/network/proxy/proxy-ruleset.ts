import { createHash } from 'node:crypto';
import { CLUSTER_POD_CIDR, type ServicePort } from '../service-model';

export const PROXY_TABLE = 'kv-proxy';
/** The packet mark bit meaning "masquerade this connection in postrouting" (kube-proxy uses the same bit). */
export const MASQ_MARK = '0x4000';

export interface ProxyRulesInput {
  ports: ServicePort[];
  /** source range that needs no SNAT for ClusterIP traffic (the pods); anything else is masqueraded */
  podCidr?: string;
}

function hash8(s: string): string {
  return createHash('sha256').update(s).digest('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 8).toUpperCase();
}

function portId(p: ServicePort): string {
  return `${p.namespace}/${p.service}/${p.protocol}/${p.portName || p.port}`;
}

/** Chain names: a hash keeps them unique, the readable tail says which Service they serve. */
export function serviceChain(p: ServicePort): string {
  return `svc-${hash8(portId(p))}-${portId(p)}`;
}
function externalChain(p: ServicePort): string {
  return `ext-${hash8(portId(p))}-${portId(p)}`;
}
function endpointChain(p: ServicePort, ip: string, port: number): string {
  const id = `${portId(p)}__${ip}/${port}`;
  return `ep-${hash8(id)}-${id}`;
}

function affinitySet(p: ServicePort, ip: string, port: number): string {
  const id = `${portId(p)}__${ip}/${port}`;
  return `affinity-${hash8(id)}-${id}`;
}

function mapBlock(name: string, type: string, elements: string[], comment: string): string[] {
  const body = [`    type ${type}`, `    comment "${comment}"`];
  if (elements.length) body.push(`    elements = {\n      ${elements.join(',\n      ')}\n    }`);
  return [`  map ${name} {`, ...body, '  }'];
}

/**
 * The service proxy's table `ip kv-proxy`, after kube-proxy's nftables mode:
 * - `services` (from nat prerouting for Pods and nat output for host processes): ClusterIP . proto .
 *   port → the Service port's chain through the `service-ips` vmap; any local address (fib daddr type
 *   local, 127.0.0.1 included) . proto . nodePort → its `ext-` chain through `service-nodeports`.
 * - a Service chain picks a ready endpoint with `numgen random mod N` and jumps to its endpoint
 *   chain, which DNATs. ClusterIP traffic not from a Pod, all NodePort traffic and a Pod reaching
 *   itself through its Service (hairpin) are marked and masqueraded in postrouting, so replies come
 *   back through the host.
 * - sessionAffinity ClientIP: each endpoint chain records the client in a timed set, and the Service
 *   chain sends a recorded client back to that endpoint before picking at random. The sets go with
 *   every table replacement, so any Service change forgets the affinities (kube-proxy keeps them).
 * - packets for 127.0.0.0/8 that did not come in on lo are dropped (route_localnet is on for
 *   localhost NodePorts).
 * - a Service port with no ready endpoint is rejected (ICMP port unreachable → ECONNREFUSED) in the
 *   filter hooks before anything else sees the packet, as kube-proxy does; never a silent drop.
 */
export function renderProxyRules(i: ProxyRulesInput): string {
  const podCidr = i.podCidr ?? CLUSTER_POD_CIDR;
  const serviceIps: string[] = [];
  const nodePorts: string[] = [];
  const noEpIps: string[] = [];
  const noEpNodePorts: string[] = [];
  const chains: string[] = [];
  const sets: string[] = [];
  for (const p of i.ports) {
    if (!p.clusterIP) continue; // headless: DNS only
    const svc = serviceChain(p);
    const key = `${p.clusterIP} . ${p.protocol} . ${p.port}`;
    if (!p.endpoints.length) {
      noEpIps.push(`${key} : goto reject-chain`);
      if (p.nodePort) noEpNodePorts.push(`${p.protocol} . ${p.nodePort} : goto reject-chain`);
      continue;
    }
    serviceIps.push(`${key} : goto ${svc}`);
    const eps = p.endpoints.map((e) => ({ ...e, chain: endpointChain(p, e.ip, e.port), affinity: affinitySet(p, e.ip, e.port) }));
    const sticky = p.affinitySeconds ? eps : [];
    // sessionAffinity ClientIP: a client seen recently goes back to its endpoint (one timed set per endpoint)
    for (const e of sticky) sets.push(`  set ${e.affinity} {`, '    type ipv4_addr', '    flags dynamic,timeout', `    timeout ${p.affinitySeconds}s`, '  }');
    const pick = eps.length === 1 ? `goto ${eps[0]!.chain}` : `numgen random mod ${eps.length} vmap { ${eps.map((e, n) => `${n} : goto ${e.chain}`).join(', ')} }`;
    chains.push(
      `  chain ${svc} {`,
      `    ip daddr ${p.clusterIP} ip saddr != ${podCidr} jump mark-for-masquerade`,
      ...sticky.map((e) => `    ip saddr @${e.affinity} goto ${e.chain}`),
      `    ${pick}`,
      '  }',
    );
    if (p.nodePort) {
      nodePorts.push(`${p.protocol} . ${p.nodePort} : goto ${externalChain(p)}`);
      chains.push(`  chain ${externalChain(p)} {`, '    jump mark-for-masquerade', `    goto ${svc}`, '  }');
    }
    for (const e of eps) {
      chains.push(
        `  chain ${e.chain} {`,
        `    ip saddr ${e.ip} jump mark-for-masquerade`,
        ...(p.affinitySeconds ? [`    update @${e.affinity} { ip saddr }`] : []),
        `    meta l4proto ${p.protocol} dnat to ${e.ip}:${e.port}`,
        '  }',
      );
    }
  }
  const filterHook = (hook: string) => [
    `  chain filter-${hook} {`,
    `    type filter hook ${hook} priority filter - 10; policy accept;`,
    '    ct state new jump service-endpoints-check',
    '  }',
  ];
  // the name dstnat is only accepted for prerouting; -100 is its value
  const natHook = (hook: string) => [
    `  chain nat-${hook} {`,
    `    type nat hook ${hook} priority ${hook === 'prerouting' ? 'dstnat' : '-100'}; policy accept;`,
    '    jump services',
    '  }',
  ];
  return [
    `table ip ${PROXY_TABLE} {`,
    '  comment "Services: ClusterIP and NodePort (kubevirt-ts service proxy)"',
    ...mapBlock('service-ips', 'ipv4_addr . inet_proto . inet_service : verdict', serviceIps, 'ClusterIP traffic'),
    ...mapBlock('service-nodeports', 'inet_proto . inet_service : verdict', nodePorts, 'NodePort traffic'),
    ...mapBlock('no-endpoint-services', 'ipv4_addr . inet_proto . inet_service : verdict', noEpIps, 'ClusterIPs with no ready endpoint'),
    ...mapBlock('no-endpoint-nodeports', 'inet_proto . inet_service : verdict', noEpNodePorts, 'NodePorts with no ready endpoint'),
    '  chain reject-chain {',
    '    reject',
    '  }',
    '  chain service-endpoints-check {',
    '    ip daddr . meta l4proto . th dport vmap @no-endpoint-services',
    '    fib daddr type local meta l4proto . th dport vmap @no-endpoint-nodeports',
    '  }',
    // route_localnet=1 (localhost NodePorts) would let packets for 127.0.0.0/8 arrive from outside:
    // only the loopback link may carry them (CVE-2020-8558)
    '  chain filter-prerouting {',
    '    type filter hook prerouting priority dstnat - 10; policy accept;',
    '    iifname != "lo" ip daddr 127.0.0.0/8 drop',
    '  }',
    ...filterHook('input'),
    ...filterHook('forward'),
    ...filterHook('output'),
    ...natHook('prerouting'),
    ...natHook('output'),
    '  chain nat-postrouting {',
    '    type nat hook postrouting priority srcnat; policy accept;',
    `    meta mark & ${MASQ_MARK} == 0 return`,
    `    meta mark set meta mark ^ ${MASQ_MARK}`,
    '    masquerade fully-random',
    '  }',
    '  chain mark-for-masquerade {',
    `    meta mark set meta mark | ${MASQ_MARK}`,
    '  }',
    '  chain services {',
    '    ip daddr . meta l4proto . th dport vmap @service-ips',
    '    fib daddr type local meta l4proto . th dport vmap @service-nodeports',
    '  }',
    ...sets,
    ...chains,
    '}',
    '',
  ].join('\n');
}

/** A script for `nft -f -` that replaces the table atomically whether or not it exists. */
export function renderProxyReplaceScript(i: ProxyRulesInput): string {
  return `table ip ${PROXY_TABLE}\ndelete table ip ${PROXY_TABLE}\n${renderProxyRules(i)}`;
}
