/**
 * PURE: the launcher's nftables table `ip kv-launcher` inside its Pod's namespace.
 * masquerade: inbound traffic for the Pod IP → the guest (declared ports, or every port but the
 * launcher's own), guest egress masqueraded to eth0. Both bindings: from the guest's side the Pod
 * namespace itself answers DHCP only, so a guest cannot reach the launcher's listeners.
 */
import type { BindingKind } from './binding-plan';

export const LAUNCHER_TABLE = 'kv-launcher';

export interface RulesetInput {
  kind: BindingKind;
  podIP: string;
  guest: string;
  guestCidr: string;
  ports: { protocol: 'TCP' | 'UDP'; port: number }[];
  launcherPorts: number[];
}

const set = (ports: number[]) => `{ ${[...new Set(ports)].sort((a, b) => a - b).join(', ')} }`;

function dnatRules(r: RulesetInput): string[] {
  const match = `iifname "eth0" ip daddr ${r.podIP}`;
  if (r.ports.length === 0) {
    const tcp = r.launcherPorts.length ? `tcp dport != ${set(r.launcherPorts)}` : 'meta l4proto tcp';
    return [`${match} ${tcp} dnat to ${r.guest}`, `${match} meta l4proto udp dnat to ${r.guest}`];
  }
  const out: string[] = [];
  for (const proto of ['tcp', 'udp'] as const) {
    const ports = r.ports.filter((p) => p.protocol.toLowerCase() === proto).map((p) => p.port);
    if (ports.length) out.push(`${match} ${proto} dport ${set(ports)} dnat to ${r.guest}`);
  }
  return out;
}

function chain(name: string, hook: string, body: string[]): string[] {
  return [`  chain ${name} {`, `    ${hook}`, ...body.map((l) => `    ${l}`), '  }'];
}

export function renderBindingRuleset(r: RulesetInput): string {
  // the guest may ask for a lease and answer connections the launcher opened (port-forward); nothing else
  const guestSide = ['iifname "k6t-eth0" udp dport 67 accept', 'iifname "k6t-eth0" ct state established,related accept', 'iifname "k6t-eth0" drop'];
  const chains = chain('input', 'type filter hook input priority filter; policy accept;', guestSide);
  if (r.kind === 'masquerade') {
    chains.push(
      ...chain('prerouting', 'type nat hook prerouting priority dstnat; policy accept;', dnatRules(r)),
      ...chain('postrouting', 'type nat hook postrouting priority srcnat; policy accept;', [`oifname "eth0" ip saddr ${r.guestCidr} masquerade`]),
    );
  }
  return [`table ip ${LAUNCHER_TABLE}`, `delete table ip ${LAUNCHER_TABLE}`, `table ip ${LAUNCHER_TABLE} {`, ...chains, '}', ''].join('\n');
}
