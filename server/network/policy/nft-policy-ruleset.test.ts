import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { cidrRange, mergeRanges, rangeElement, subtractRanges } from './ipv4-ranges';
import { renderPolicyReplaceScript, renderPolicyTable } from './nft-policy-ruleset';
import { buildPolicyModel, type NetworkPolicyObject } from './policy-model';

const OPTS = { table: 'kv-policy-unit' };
const pod = (ns: string, name: string, ip: string, labels: Record<string, string> = {}): V1Pod => ({
  metadata: { namespace: ns, name, labels },
  spec: { containers: [{ name: 'c', ports: [{ name: 'http', containerPort: 8080 }, { name: 'dns', containerPort: 53, protocol: 'UDP' }] }] },
  status: { phase: 'Running', podIP: ip },
});
const PODS = [pod('a', 'web', '10.244.1.10', { app: 'web' }), pod('a', 'db', '10.244.1.11', { app: 'db' }), pod('b', 'client', '10.244.2.20', { role: 'client' })];
const NAMESPACES = [{ metadata: { name: 'a', labels: { team: 'a' } } }, { metadata: { name: 'b', labels: { team: 'b' } } }];
const np = (ns: string, name: string, spec: Record<string, unknown>) => ({ metadata: { namespace: ns, name }, spec: { podSelector: {}, ...spec } }) as NetworkPolicyObject;
const render = (...policies: NetworkPolicyObject[]) => renderPolicyTable(buildPolicyModel({ policies, pods: PODS, namespaces: NAMESPACES }), OPTS);

const EVERYTHING = [
  np('a', 'deny', {}),
  np('a', 'web', {
    podSelector: { matchLabels: { app: 'web' } },
    policyTypes: ['Ingress', 'Egress'],
    ingress: [
      { from: [{ namespaceSelector: { matchLabels: { team: 'b' } } }, { ipBlock: { cidr: '192.0.2.0/24', except: ['192.0.2.128/25'] } }], ports: [{ protocol: 'TCP', port: 'http' }, { protocol: 'TCP', port: 9000, endPort: 9100 }, { protocol: 'UDP' }] },
      { from: [{ podSelector: { matchLabels: { nothing: 'here' } } }] },
    ],
    egress: [{ to: [{ podSelector: { matchLabels: { app: 'db' } } }], ports: [{ protocol: 'UDP', port: 'dns' }, { protocol: 'SCTP', port: 3868 }] }, { to: [{ ipBlock: { cidr: '2001:db8::/32' } }] }],
  }),
  np('b', 'out', { policyTypes: ['Egress'], egress: [{}] }),
];

describe('IPv4 ranges', () => {
  it('cuts excepts out of a CIDR and merges neighbours', () => {
    const holes = [cidrRange('10.0.0.64/26')!, cidrRange('10.0.0.0/30')!];
    expect(subtractRanges([cidrRange('10.0.0.0/24')!], holes).map(rangeElement)).toEqual(['10.0.0.4-10.0.0.63', '10.0.0.128-10.0.0.255']);
    expect(mergeRanges([cidrRange('10.0.0.1/32')!, cidrRange('10.0.0.2/32')!, cidrRange('10.0.0.0/30')!]).map(rangeElement)).toEqual(['10.0.0.0-10.0.0.3']);
    expect(cidrRange('2001:db8::/32')).toBeUndefined();
    expect(cidrRange('10.1.2.3/16')).toEqual(cidrRange('10.1.0.0/16'));
  });
});

describe('the kv-policy nftables table', () => {
  it('has only the forward chain with the reply rule when no policy exists', () => {
    const t = render();
    expect(t).toContain('type filter hook forward priority filter; policy accept;\n    ct state established,related accept\n  }');
    expect(t).not.toContain('vmap');
  });

  it('sends isolated pods through their own chains, egress before ingress, and rejects what no rule allows', () => {
    const t = render(np('a', 'deny', {}));
    expect(t).toContain('    ip daddr vmap { 10.244.1.10 : jump ingress_0, 10.244.1.11 : jump ingress_1 }');
    expect(t).toContain('  chain ingress_0 {\n    comment "ingress of a/web"\n    meta l4proto tcp reject with tcp reset\n    reject with icmpx admin-prohibited\n  }');
    expect(t).not.toContain('ip saddr vmap');
  });

  it('renders peers and ports as sets and resolves named ports', () => {
    const t = render(...EVERYTHING);
    // egress chains come first, so the egress rule's sets are numbered first
    expect(t).toContain('set peers_0 { type ipv4_addr; flags interval; comment "a/web egress[0]"; elements = { 10.244.1.11 }; }');
    expect(t).toContain('set named_0_udp { type ipv4_addr . inet_service; elements = { 10.244.1.10 . 53, 10.244.1.11 . 53, 10.244.2.20 . 53 }; }');
    expect(t).toContain('ip daddr @peers_0 meta l4proto udp ip daddr . th dport @named_0_udp return comment "a/web egress[0]"');
    expect(t).toContain('ip daddr @peers_0 meta l4proto sctp th dport @ports_0_sctp return');
    expect(t).toContain('set peers_2 { type ipv4_addr; flags interval; comment "a/web ingress[0]"; elements = { 10.244.2.20, 192.0.2.0-192.0.2.127 }; }');
    expect(t).toContain('set ports_2_tcp { type inet_service; flags interval; auto-merge; elements = { 9000-9100 }; }');
    expect(t).toContain('ip saddr @peers_2 meta l4proto tcp th dport @ports_2_tcp return comment "a/web ingress[0]"');
    expect(t).toContain('ip saddr @peers_2 meta l4proto tcp th dport { 8080 } return comment "a/web ingress[0]"');
    expect(t).toContain('ip saddr @peers_2 meta l4proto udp return comment "a/web ingress[0]"');
    expect(t).not.toContain('named_2_tcp');
    // a rule whose peers select nothing allows nothing; an IPv6 block has no IPv4 pods to allow
    expect(t).not.toContain('ingress[1]');
    expect(t).not.toContain('egress[1]');
    expect(t).toContain('    return comment "b/out egress[0]"');
    expect(t).toContain('ip saddr vmap { 10.244.1.10 : jump egress_0, 10.244.2.20 : jump egress_1 }');
  });

  it('is accepted by nft (check mode)', () => {
    if (!existsSync('/usr/sbin/nft') || process.getuid?.() !== 0) return;
    for (const policies of [[], [EVERYTHING[0]], EVERYTHING]) {
      const script = renderPolicyReplaceScript(buildPolicyModel({ policies, pods: PODS, namespaces: NAMESPACES }), OPTS);
      expect(() => execFileSync('nft', ['-c', '-f', '-'], { input: script, stdio: ['pipe', 'pipe', 'pipe'] })).not.toThrow();
    }
  });
});
