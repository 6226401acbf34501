/**
 * Kubernetes' NetworkPolicy semantics, reduced to what the rules need: for each Pod selected by a
 * policy of a direction (isolated for it), the rules that allow traffic in that direction, each
 * with its peers (address ranges, or any) and ports.
 */
import type { KubernetesObject, V1LabelSelector, V1Namespace, V1Pod } from '@kubernetes/client-node';
import { matchesLabelSelector } from '../../node/label-selector-match';
import { cidrRange, ipv4ToNumber, mergeRanges, subtractRanges, type Range } from './ipv4-ranges';

export type Direction = 'ingress' | 'egress';

/** networking.k8s.io/v1 NetworkPolicy as JSON (client-node's class renames `from` to `_from`) */
export interface PolicyPeer {
  podSelector?: V1LabelSelector;
  namespaceSelector?: V1LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
export interface PolicyPort {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}
export interface PolicyRule {
  from?: PolicyPeer[];
  to?: PolicyPeer[];
  ports?: PolicyPort[];
}
export interface NetworkPolicyObject extends KubernetesObject {
  spec?: { podSelector?: V1LabelSelector; policyTypes?: string[]; ingress?: PolicyRule[]; egress?: PolicyRule[] };
}
export type Protocol = 'TCP' | 'UDP' | 'SCTP';

/** One port entry of a rule: a protocol with all its ports, a number range, or a container port name. */
export interface PortMatch {
  protocol: Protocol;
  /** absent: every port of the protocol */
  range?: Range;
  name?: string;
}

/** An allow rule of one policy: traffic to/from `peers` (undefined = anyone) on `ports` (empty = any). */
export interface AllowRule {
  /** `namespace/name ingress[i]`, for set names and comments */
  id: string;
  direction: Direction;
  peers?: Range[];
  ports: PortMatch[];
}

/** A Pod isolated in one direction and the rules (of every policy selecting it) that allow traffic. */
export interface IsolatedPod {
  key: string;
  ip: string;
  rules: AllowRule[];
  /** the Pod's own named container ports (`name/protocol` → port), for ingress named ports */
  namedPorts: Map<string, number>;
}

export interface PolicyModel {
  ingress: IsolatedPod[];
  egress: IsolatedPod[];
  /** every Pod's named ports: egress named ports match on the destination Pod's number */
  namedPortsByIp: Map<string, Map<string, number>>;
}

export interface ClusterState {
  policies: readonly NetworkPolicyObject[];
  pods: readonly V1Pod[];
  namespaces: readonly V1Namespace[];
}

const PROTOCOLS: readonly Protocol[] = ['TCP', 'UDP', 'SCTP'];

/** the Pod's IPv4 address on the pod network, if it has one (host-network and finished Pods have none) */
export function podIPv4(pod: V1Pod): string | undefined {
  const ip = pod.status?.podIP;
  if (!ip || !/^\d+\.\d+\.\d+\.\d+$/.test(ip) || ip.startsWith('127.') || pod.spec?.hostNetwork) return undefined;
  if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return undefined;
  return ip;
}

export const namedPortKey = (name: string, protocol: string) => `${name}/${protocol}`;

function namedPortsOf(pod: V1Pod): Map<string, number> {
  const ports = new Map<string, number>();
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) if (p.name) ports.set(namedPortKey(p.name, p.protocol ?? 'TCP'), p.containerPort);
  }
  return ports;
}

function policyTypes(np: NetworkPolicyObject): Direction[] {
  const types = np.spec?.policyTypes?.length ? np.spec.policyTypes : np.spec?.egress?.length ? ['Ingress', 'Egress'] : ['Ingress'];
  return types.map((t) => t.toLowerCase()).filter((t): t is Direction => t === 'ingress' || t === 'egress');
}

function portMatches(ports: readonly PolicyPort[] | undefined): PortMatch[] {
  return (ports ?? []).flatMap((p): PortMatch[] => {
    const protocol = (p.protocol ?? 'TCP') as Protocol;
    if (!PROTOCOLS.includes(protocol)) return [];
    if (p.port === undefined || p.port === null) return [{ protocol }];
    if (typeof p.port === 'string' && !/^\d+$/.test(p.port)) return [{ protocol, name: p.port }];
    const port = Number(p.port);
    return [{ protocol, range: [port, Math.max(port, p.endPort ?? port)] }];
  });
}

class Cluster {
  readonly nsLabels = new Map<string, Record<string, string>>();
  readonly pods: { pod: V1Pod; ip: string; ns: string }[];

  constructor(state: ClusterState) {
    for (const ns of state.namespaces) this.nsLabels.set(ns.metadata?.name ?? '', ns.metadata?.labels ?? {});
    this.pods = state.pods.flatMap((pod) => {
      const ip = podIPv4(pod);
      return ip ? [{ pod, ip, ns: pod.metadata?.namespace ?? '' }] : [];
    });
  }

  /** the address ranges one peer stands for, seen from a policy in `policyNs` */
  peerRanges(peer: PolicyPeer, policyNs: string): Range[] {
    if (peer.ipBlock) {
      const whole = cidrRange(peer.ipBlock.cidr);
      if (!whole) return [];
      const holes = (peer.ipBlock.except ?? []).flatMap((e): Range[] => {
        const r = cidrRange(e);
        return r ? [r] : [];
      });
      return subtractRanges([whole], holes);
    }
    const nsOk = (ns: string) => (peer.namespaceSelector ? matchesLabelSelector(peer.namespaceSelector, this.nsLabels.get(ns)) : ns === policyNs);
    const podOk = (pod: V1Pod) => !peer.podSelector || matchesLabelSelector(peer.podSelector, pod.metadata?.labels);
    return this.pods.filter((p) => nsOk(p.ns) && podOk(p.pod)).map((p): Range => [ipv4ToNumber(p.ip), ipv4ToNumber(p.ip)]);
  }
}

function allowRules(np: NetworkPolicyObject, dir: Direction, cluster: Cluster): AllowRule[] {
  const ns = np.metadata?.namespace ?? '';
  const rules = (dir === 'ingress' ? np.spec?.ingress : np.spec?.egress) ?? [];
  return rules.map((rule, i) => {
    const peers = dir === 'ingress' ? rule.from : rule.to;
    const id = `${ns}/${np.metadata?.name ?? ''} ${dir}[${i}]`;
    const ports = portMatches(rule.ports);
    if (!peers || peers.length === 0) return { id, direction: dir, ports };
    return { id, direction: dir, peers: mergeRanges(peers.flatMap<Range>((p) => cluster.peerRanges(p, ns))), ports };
  });
}

/** Which Pods each direction isolates and what is allowed to and from them. */
export function buildPolicyModel(state: ClusterState): PolicyModel {
  const cluster = new Cluster(state);
  const model: PolicyModel = { ingress: [], egress: [], namedPortsByIp: new Map(cluster.pods.map((p) => [p.ip, namedPortsOf(p.pod)])) };
  const byPod = { ingress: new Map<string, IsolatedPod>(), egress: new Map<string, IsolatedPod>() };
  const sorted = [...state.policies].sort((a, b) => `${a.metadata?.namespace}/${a.metadata?.name}`.localeCompare(`${b.metadata?.namespace}/${b.metadata?.name}`));
  for (const np of sorted) {
    const selected = cluster.pods.filter((p) => p.ns === np.metadata?.namespace && matchesLabelSelector(np.spec?.podSelector ?? {}, p.pod.metadata?.labels));
    for (const dir of policyTypes(np)) {
      const rules = allowRules(np, dir, cluster);
      for (const p of selected) {
        // keyed by address: two Pods sharing one (a stale one and its successor) get the union of their rules
        const key = `${p.ns}/${p.pod.metadata?.name ?? ''}`;
        const entry: IsolatedPod = byPod[dir].get(p.ip) ?? { key, ip: p.ip, rules: [], namedPorts: model.namedPortsByIp.get(p.ip) ?? new Map() };
        if (!entry.key.split(',').includes(key)) entry.key = `${entry.key},${key}`;
        entry.rules.push(...rules.filter((r) => !entry.rules.includes(r)));
        byPod[dir].set(p.ip, entry);
      }
    }
  }
  model.ingress = [...byPod.ingress.values()].sort((a, b) => ipv4ToNumber(a.ip) - ipv4ToNumber(b.ip));
  model.egress = [...byPod.egress.values()].sort((a, b) => ipv4ToNumber(a.ip) - ipv4ToNumber(b.ip));
  return model;
}

/** A new connection's first packet, for `isAllowed`. */
export interface Packet {
  src: string;
  dst: string;
  protocol: Protocol;
  port: number;
}

const inRanges = (ranges: readonly Range[], ip: string) => ranges.some(([a, b]) => ipv4ToNumber(ip) >= a && ipv4ToNumber(ip) <= b);

function portAllowed(ports: readonly PortMatch[], p: Packet, dstPorts: Map<string, number> | undefined): boolean {
  if (ports.length === 0) return true;
  return ports.some((m) => {
    if (m.protocol !== p.protocol) return false;
    if (m.range) return p.port >= m.range[0] && p.port <= m.range[1];
    if (m.name) return dstPorts?.get(namedPortKey(m.name, m.protocol)) === p.port;
    return true;
  });
}

function ruleAllows(rule: AllowRule, peer: string, p: Packet, dstPorts: Map<string, number> | undefined): boolean {
  return (!rule.peers || inRanges(rule.peers, peer)) && portAllowed(rule.ports, p, dstPorts);
}

/**
 * What the rules decide for a new connection (the reference the nftables rendering follows): the
 * source's egress and the destination's ingress must both allow it; a Pod no policy isolates
 * allows everything in that direction.
 */
export function isAllowed(model: PolicyModel, p: Packet): boolean {
  const dstPorts = model.namedPortsByIp.get(p.dst);
  const out = model.egress.find((e) => e.ip === p.src);
  if (out && !out.rules.some((r) => ruleAllows(r, p.dst, p, dstPorts))) return false;
  const into = model.ingress.find((e) => e.ip === p.dst);
  return !into || into.rules.some((r) => ruleAllows(r, p.src, p, dstPorts));
}
