import type { V1Namespace, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildPolicyModel, isAllowed, type NetworkPolicyObject, type Packet, type PolicyRule } from './policy-model';

const ns = (name: string, labels: Record<string, string> = {}): V1Namespace => ({ metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } } });
function pod(namespace: string, name: string, ip: string, labels: Record<string, string> = {}, ports: { name: string; containerPort: number; protocol?: string }[] = []): V1Pod {
  return { metadata: { namespace, name, labels }, spec: { containers: [{ name: 'c', ports }] }, status: { phase: 'Running', podIP: ip } };
}
function policy(namespace: string, name: string, spec: { podSelector?: Record<string, unknown>; policyTypes?: string[]; ingress?: PolicyRule[]; egress?: PolicyRule[] }): NetworkPolicyObject {
  return { metadata: { namespace, name }, spec: { podSelector: {}, ...spec } } as NetworkPolicyObject;
}

// the cluster: namespace prod (team=a) with web (app=web, port "http" 8080) and db (app=db);
// namespace dev (team=b) with client (role=client); namespace ops (no team) with tool.
const WEB = '10.244.1.10';
const DB = '10.244.1.11';
const CLIENT = '10.244.2.20';
const TOOL = '10.244.2.30';
const OUTSIDE = '192.0.2.7';
const NAMESPACES = [ns('prod', { team: 'a' }), ns('dev', { team: 'b' }), ns('ops')];
const PODS = [
  pod('prod', 'web', WEB, { app: 'web' }, [{ name: 'http', containerPort: 8080 }, { name: 'dns', containerPort: 5353, protocol: 'UDP' }]),
  pod('prod', 'db', DB, { app: 'db' }),
  pod('dev', 'client', CLIENT, { role: 'client' }),
  pod('ops', 'tool', TOOL),
];

const tcp = (src: string, dst: string, port = 8080): Packet => ({ src, dst, protocol: 'TCP', port });
const udp = (src: string, dst: string, port: number): Packet => ({ src, dst, protocol: 'UDP', port });
const webOnly = { matchLabels: { app: 'web' } };

const CASES: [string, NetworkPolicyObject[], Packet, boolean][] = [
  ['no policy: everything is allowed', [], tcp(CLIENT, WEB), true],
  ['deny-all ingress blocks other namespaces', [policy('prod', 'deny', {})], tcp(CLIENT, WEB), false],
  ['deny-all ingress blocks its own namespace', [policy('prod', 'deny', {})], tcp(DB, WEB), false],
  ['deny-all ingress leaves egress of the selected pod alone', [policy('prod', 'deny', {})], tcp(WEB, CLIENT), true],
  ['deny-all ingress only affects its namespace', [policy('prod', 'deny', {})], tcp(WEB, TOOL), true],
  ['a policy selecting web leaves db open', [policy('prod', 'p', { podSelector: webOnly })], tcp(CLIENT, DB), true],
  ['allow-all ingress (one empty rule)', [policy('prod', 'p', { ingress: [{}] })], tcp(OUTSIDE, WEB), true],
  ['from a pod label in the same namespace: allowed', [policy('prod', 'p', { ingress: [{ from: [{ podSelector: { matchLabels: { app: 'db' } } }] }] })], tcp(DB, WEB), true],
  ['a podSelector peer never matches another namespace', [policy('prod', 'p', { ingress: [{ from: [{ podSelector: {} }] }] })], tcp(CLIENT, WEB), false],
  ['from a namespace label: allowed', [policy('prod', 'p', { ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'b' } } }] }] })], tcp(CLIENT, WEB), true],
  ['from a namespace label: others refused', [policy('prod', 'p', { ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'b' } } }] }] })], tcp(TOOL, WEB), false],
  ['namespace and pod selector in one peer: both must hold', [policy('prod', 'p', { ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'b' } }, podSelector: { matchLabels: { role: 'admin' } } }] }] })], tcp(CLIENT, WEB), false],
  ['namespace and pod selector in one peer: allowed when both hold', [policy('prod', 'p', { ingress: [{ from: [{ namespaceSelector: {}, podSelector: { matchLabels: { role: 'client' } } }] }] })], tcp(CLIENT, WEB), true],
  ['two peers are OR-ed', [policy('prod', 'p', { ingress: [{ from: [{ namespaceSelector: { matchLabels: { team: 'x' } } }, { podSelector: { matchLabels: { app: 'db' } } }] }] })], tcp(DB, WEB), true],
  ['a port rule allows its port', [policy('prod', 'p', { ingress: [{ ports: [{ protocol: 'TCP', port: 8080 }] }] })], tcp(CLIENT, WEB, 8080), true],
  ['a port rule refuses other ports', [policy('prod', 'p', { ingress: [{ ports: [{ protocol: 'TCP', port: 8080 }] }] })], tcp(CLIENT, WEB, 22), false],
  ['a port rule refuses the same number over UDP', [policy('prod', 'p', { ingress: [{ ports: [{ protocol: 'TCP', port: 8080 }] }] })], udp(CLIENT, WEB, 8080), false],
  ['endPort opens a range', [policy('prod', 'p', { ingress: [{ ports: [{ protocol: 'TCP', port: 9000, endPort: 9100 }] }] })], tcp(CLIENT, WEB, 9050), true],
  ['a named port resolves against the pod', [policy('prod', 'p', { ingress: [{ ports: [{ protocol: 'TCP', port: 'http' }] }] })], tcp(CLIENT, WEB, 8080), true],
  ['a named port the pod lacks matches nothing', [policy('prod', 'p', { ingress: [{ ports: [{ protocol: 'TCP', port: 'http' }] }] })], tcp(CLIENT, DB, 8080), false],
  ['a protocol without a port opens all its ports', [policy('prod', 'p', { ingress: [{ ports: [{ protocol: 'UDP' }] }] })], udp(CLIENT, WEB, 9999), true],
  ['peers and ports must both match', [policy('prod', 'p', { ingress: [{ from: [{ podSelector: {} }], ports: [{ protocol: 'TCP', port: 80 }] }] })], tcp(DB, WEB, 8080), false],
  ['ipBlock allows its range', [policy('prod', 'p', { ingress: [{ from: [{ ipBlock: { cidr: '10.244.2.0/24', except: ['10.244.2.20/32'] } }] }] })], tcp(TOOL, WEB), true],
  ['ipBlock except refuses the hole', [policy('prod', 'p', { ingress: [{ from: [{ ipBlock: { cidr: '10.244.2.0/24', except: ['10.244.2.20/32'] } }] }] })], tcp(CLIENT, WEB), false],
  ['ipBlock for outside addresses', [policy('prod', 'p', { ingress: [{ from: [{ ipBlock: { cidr: '192.0.2.0/24' } }] }] })], tcp(OUTSIDE, WEB), true],
  ['egress deny-all blocks the pod going out', [policy('prod', 'p', { policyTypes: ['Egress'] })], tcp(WEB, CLIENT), false],
  ['egress deny-all blocks the pod to the outside', [policy('prod', 'p', { policyTypes: ['Egress'] })], tcp(WEB, OUTSIDE, 443), false],
  ['egress deny-all leaves ingress alone', [policy('prod', 'p', { policyTypes: ['Egress'] })], tcp(CLIENT, WEB), true],
  ['egress to a namespace', [policy('dev', 'p', { policyTypes: ['Egress'], egress: [{ to: [{ namespaceSelector: { matchLabels: { team: 'a' } } }] }] })], tcp(CLIENT, DB), true],
  ['egress to a namespace refuses others', [policy('dev', 'p', { policyTypes: ['Egress'], egress: [{ to: [{ namespaceSelector: { matchLabels: { team: 'a' } } }] }] })], tcp(CLIENT, TOOL), false],
  ['egress named port resolves against the destination', [policy('dev', 'p', { policyTypes: ['Egress'], egress: [{ ports: [{ protocol: 'UDP', port: 'dns' }] }] })], udp(CLIENT, WEB, 5353), true],
  ['egress named port refuses a destination without it', [policy('dev', 'p', { policyTypes: ['Egress'], egress: [{ ports: [{ protocol: 'UDP', port: 'dns' }] }] })], udp(CLIENT, DB, 5353), false],
  ['egress allowed but the destination isolates ingress', [policy('dev', 'e', { egress: [{}], policyTypes: ['Egress'] }), policy('prod', 'deny', {})], tcp(CLIENT, WEB), false],
  ['two policies: the union of their rules (first)', [policy('prod', 'a', { ingress: [{ ports: [{ protocol: 'TCP', port: 80 }] }] }), policy('prod', 'b', { ingress: [{ ports: [{ protocol: 'TCP', port: 8080 }] }] })], tcp(CLIENT, WEB, 80), true],
  ['two policies: the union of their rules (second)', [policy('prod', 'a', { ingress: [{ ports: [{ protocol: 'TCP', port: 80 }] }] }), policy('prod', 'b', { ingress: [{ ports: [{ protocol: 'TCP', port: 8080 }] }] })], tcp(CLIENT, WEB, 8080), true],
  ['two policies: neither allows', [policy('prod', 'a', { ingress: [{ ports: [{ protocol: 'TCP', port: 80 }] }] }), policy('prod', 'b', { ingress: [{ ports: [{ protocol: 'TCP', port: 8080 }] }] })], tcp(CLIENT, WEB, 22), false],
  ['deny-all plus allow: allow wins', [policy('prod', 'deny', {}), policy('prod', 'allow', { podSelector: webOnly, ingress: [{ from: [{ namespaceSelector: {} }] }] })], tcp(TOOL, WEB), true],
  ['policyTypes Ingress ignores egress rules', [policy('prod', 'p', { policyTypes: ['Ingress'], egress: [{ to: [{ ipBlock: { cidr: '1.1.1.1/32' } }] }] })], tcp(WEB, CLIENT), true],
];

describe('NetworkPolicy semantics', () => {
  it.each(CASES)('%s', (_name, policies, packet, allowed) => {
    expect(isAllowed(buildPolicyModel({ policies, pods: PODS, namespaces: NAMESPACES }), packet)).toBe(allowed);
  });

  it('ignores pods without a pod-network address (host network, finished, not yet started)', () => {
    const extra: V1Pod[] = [
      { ...pod('prod', 'host', '10.244.1.98'), spec: { hostNetwork: true, containers: [] } },
      { ...pod('prod', 'done', '10.244.1.99'), status: { phase: 'Succeeded', podIP: '10.244.1.99' } },
      { metadata: { namespace: 'prod', name: 'pending' }, status: { phase: 'Pending' } },
    ];
    const model = buildPolicyModel({ policies: [policy('prod', 'deny', {})], pods: [...PODS, ...extra], namespaces: NAMESPACES });
    expect(model.ingress.map((p) => p.key)).toEqual(['prod/web', 'prod/db']);
  });

  it('gives two pods that share an address one entry with the union of their rules', () => {
    const twin = pod('prod', 'web-old', WEB, { app: 'old' });
    const policies = [policy('prod', 'web', { podSelector: webOnly, ingress: [{ ports: [{ protocol: 'TCP', port: 80 }] }] }), policy('prod', 'old', { podSelector: { matchLabels: { app: 'old' } }, ingress: [{ ports: [{ protocol: 'TCP', port: 81 }] }] })];
    const model = buildPolicyModel({ policies, pods: [...PODS, twin], namespaces: NAMESPACES });
    expect(model.ingress.map((p) => [p.key, p.rules.length])).toEqual([['prod/web-old,prod/web', 2]]);
    expect(isAllowed(model, tcp(CLIENT, WEB, 81))).toBe(true);
  });
});
