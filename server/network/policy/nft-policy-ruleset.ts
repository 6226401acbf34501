/**
 * The NetworkPolicy nftables table (`inet kv-policy`), rendered from the policy model. One base
 * chain on the forward hook sees every pod-to-pod packet, whether it was bridged (br_netfilter
 * passes bridged IPv4 through the inet hooks) or routed between node bridges, after any Service
 * DNAT (so it judges the real destination Pod). Replies of allowed connections pass first; then a
 * source Pod isolated for egress and a destination Pod isolated for ingress each jump to their own
 * chain, which returns on the first rule that allows the packet and rejects otherwise (TCP reset,
 * ICMP admin-prohibited). Traffic the host itself sends to a Pod (probes, the proxy, the handler)
 * leaves through the output hook and is never judged here, as Kubernetes lets a node reach its Pods.
 */
import { rangeElement, type Range } from './ipv4-ranges';
import { namedPortKey, type AllowRule, type Direction, type IsolatedPod, type PolicyModel, type PortMatch, type Protocol } from './policy-model';

export interface PolicyTableOptions {
  table: string;
}

const PROTOCOLS: readonly Protocol[] = ['TCP', 'UDP', 'SCTP'];
const ADDRESS_OF: Record<Direction, { peer: string; pod: string }> = {
  ingress: { peer: 'ip saddr', pod: 'ip daddr' },
  egress: { peer: 'ip daddr', pod: 'ip saddr' },
};

const portElement = ([a, b]: Range) => (a === b ? String(a) : `${a}-${b}`);
const elements = (items: string[]) => (items.length ? ` elements = { ${items.join(', ')} };` : '');

/** Named sets, one per rule (peers) and per rule and protocol (numeric ports, egress named ports). */
class SetRegistry {
  readonly lines: string[] = [];
  private readonly ids = new Map<AllowRule, number>();

  constructor(private readonly model: PolicyModel) {}

  private idOf(rule: AllowRule): number {
    let id = this.ids.get(rule);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(rule, id);
      this.declareRuleSets(rule, id);
    }
    return id;
  }

  private declareRuleSets(rule: AllowRule, id: number): void {
    if (rule.peers?.length) this.lines.push(`  set peers_${id} { type ipv4_addr; flags interval; comment "${rule.id}";${elements(rule.peers.map(rangeElement))} }`);
    for (const protocol of PROTOCOLS) {
      const ranges = rule.ports.filter((p) => p.protocol === protocol && p.range).map((p) => p.range as Range);
      if (ranges.length) this.lines.push(`  set ports_${id}_${protocol.toLowerCase()} { type inet_service; flags interval; auto-merge;${elements(ranges.map(portElement))} }`);
      const names = rule.ports.filter((p) => p.protocol === protocol && p.name).map((p) => p.name as string);
      const dests = rule.direction === 'egress' ? this.namedDestinations(names, protocol) : [];
      if (dests.length) this.lines.push(`  set named_${id}_${protocol.toLowerCase()} { type ipv4_addr . inet_service;${elements(dests)} }`);
    }
  }

  /** `ip . port` of every Pod with a container port of one of `names` (egress named ports) */
  private namedDestinations(names: string[], protocol: Protocol): string[] {
    const out = new Set<string>();
    for (const [ip, ports] of this.model.namedPortsByIp) {
      for (const name of names) {
        const port = ports.get(namedPortKey(name, protocol));
        if (port !== undefined) out.add(`${ip} . ${port}`);
      }
    }
    return [...out];
  }

  peers(rule: AllowRule, dir: Direction): string {
    const id = this.idOf(rule);
    return rule.peers ? `${ADDRESS_OF[dir].peer} @peers_${id} ` : '';
  }

  has(name: string): boolean {
    return this.lines.some((l) => l.startsWith(`  set ${name} `));
  }

  portSet(rule: AllowRule, protocol: Protocol, kind: 'ports' | 'named'): string | undefined {
    const name = `${kind}_${this.idOf(rule)}_${protocol.toLowerCase()}`;
    return this.has(name) ? name : undefined;
  }
}

/** the allow lines of one rule and protocol for one isolated Pod */
function protocolLines(sets: SetRegistry, rule: AllowRule, pod: IsolatedPod, dir: Direction, protocol: Protocol): string[] {
  const matches: PortMatch[] = rule.ports.filter((p) => p.protocol === protocol);
  if (matches.length === 0) return [];
  const head = `${sets.peers(rule, dir)}meta l4proto ${protocol.toLowerCase()}`;
  const tail = `return comment "${rule.id}"`;
  if (matches.some((p) => !p.range && !p.name)) return [`${head} ${tail}`];
  const lines: string[] = [];
  const numeric = sets.portSet(rule, protocol, 'ports');
  if (numeric) lines.push(`${head} th dport @${numeric} ${tail}`);
  if (dir === 'ingress') {
    const own = [...new Set(matches.flatMap((p) => (p.name ? pod.namedPorts.get(namedPortKey(p.name, protocol)) ?? [] : [])))].sort((a, b) => a - b);
    if (own.length) lines.push(`${head} th dport { ${own.join(', ')} } ${tail}`);
  } else {
    const named = sets.portSet(rule, protocol, 'named');
    if (named) lines.push(`${head} ip daddr . th dport @${named} ${tail}`);
  }
  return lines;
}

function ruleLines(sets: SetRegistry, rule: AllowRule, pod: IsolatedPod, dir: Direction): string[] {
  if (rule.peers && rule.peers.length === 0) return [];
  if (rule.ports.length === 0) return [`${sets.peers(rule, dir)}return comment "${rule.id}"`];
  return PROTOCOLS.flatMap((protocol) => protocolLines(sets, rule, pod, dir, protocol));
}

function podChain(sets: SetRegistry, pod: IsolatedPod, dir: Direction, index: number): string[] {
  return [
    `  chain ${dir}_${index} {`,
    `    comment "${dir} of ${pod.key}"`,
    ...pod.rules.flatMap((r) => ruleLines(sets, r, pod, dir)).map((l) => `    ${l}`),
    `    meta l4proto tcp reject with tcp reset`,
    `    reject with icmpx admin-prohibited`,
    `  }`,
  ];
}

function dispatch(pods: readonly IsolatedPod[], dir: Direction): string[] {
  if (pods.length === 0) return [];
  return [`    ${ADDRESS_OF[dir].pod} vmap { ${pods.map((p, i) => `${p.ip} : jump ${dir}_${i}`).join(', ')} }`];
}

/** The whole table: sets, the forward base chain and one chain per isolated Pod and direction. */
export function renderPolicyTable(model: PolicyModel, opts: PolicyTableOptions): string {
  const sets = new SetRegistry(model);
  const chains = [...model.egress.flatMap((p, i) => podChain(sets, p, 'egress', i)), ...model.ingress.flatMap((p, i) => podChain(sets, p, 'ingress', i))];
  return [
    `table inet ${opts.table} {`,
    ...sets.lines,
    `  chain forward {`,
    `    type filter hook forward priority filter; policy accept;`,
    `    ct state established,related accept`,
    ...dispatch(model.egress, 'egress'),
    ...dispatch(model.ingress, 'ingress'),
    `  }`,
    ...chains,
    `}`,
    '',
  ].join('\n');
}

/** A script for `nft -f -` that replaces the table atomically whether or not it exists. */
export function renderPolicyReplaceScript(model: PolicyModel, opts: PolicyTableOptions): string {
  return `table inet ${opts.table}\ndelete table inet ${opts.table}\n${renderPolicyTable(model, opts)}`;
}

/** A script that removes the table (when the enforcer stops). */
export function renderPolicyDeleteScript(opts: PolicyTableOptions): string {
  return `table inet ${opts.table}\ndelete table inet ${opts.table}\n`;
}
