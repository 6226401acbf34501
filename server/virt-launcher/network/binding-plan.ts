/**
 * PURE: how the launcher wires the pod network to the guest inside its Pod's namespace, as KubeVirt's
 * virt-launcher does: a bridge `k6t-eth0` with a tap for QEMU (owned by QEMU's user when it drops
 * root, qemu-net-devices.ts), and either
 *  - masquerade: the bridge is the guest's gateway 10.0.2.1/24, the guest gets 10.0.2.2 by DHCP,
 *    nftables DNATs inbound traffic for the Pod IP to the guest and masquerades its egress; or
 *  - bridge: eth0 gives its address up and joins the bridge; the guest gets the Pod IP by DHCP.
 * The plan is `ip -batch` lines, one nft script and the guest's DHCP lease.
 */
import { prefixToMask } from './dhcp-codec';
import { renderBindingRuleset } from './nft-render';

export const POD_LINK = 'eth0';
export const BRIDGE = 'k6t-eth0';
export const TAP = 'tap0';
export const MASQUERADE = { cidr: '10.0.2.0/24', gateway: '10.0.2.1', guest: '10.0.2.2', prefix: 24 } as const;
/** bridge binding: the bridge's own link-local address, the DHCP server's identity */
export const BRIDGE_SERVER_IP = '169.254.75.10';
/** an infinite lease: the guest never renews (the address lives as long as the Pod) */
export const INFINITE_LEASE = 0xffffffff;

export type BindingKind = 'masquerade' | 'bridge';

/** eth0 as the Pod got it from the node's network plugin. */
export interface PodLinkInfo { podIP: string; prefix: number; gateway?: string; mtu: number }

export interface BindingInput {
  kind: BindingKind;
  mac: string;
  /** declared ports; none → every port is forwarded to the guest (masquerade) */
  ports: { protocol: 'TCP' | 'UDP'; port: number }[];
  pod: PodLinkInfo;
  dns: string[];
  search: string[];
  hostname: string;
  /** TCP ports the launcher itself listens on at the Pod IP (migration, NBD): never forwarded */
  launcherPorts: number[];
  /** the tap's owner: the user QEMU runs as when it drops root (the tun driver lets only it attach) */
  tapOwner?: { uid: number; gid: number };
}

export interface GuestLease {
  mac: string;
  ip: string;
  prefix: number;
  subnetMask: string;
  router?: string;
  serverId: string;
  dns: string[];
  search: string[];
  hostname: string;
  mtu: number;
  leaseSeconds: number;
}

export interface BindingPlan { kind: BindingKind; tap: string; ipBatch: string[]; nft: string; lease: GuestLease }

function tuntapAdd(owner: BindingInput['tapOwner']): string {
  return `tuntap add dev ${TAP} mode tap${owner ? ` user ${owner.uid} group ${owner.gid}` : ''}`;
}

function masqueradeLinks(mtu: number, owner: BindingInput['tapOwner']): string[] {
  return [
    `link add ${BRIDGE} type bridge`,
    `link set ${BRIDGE} mtu ${mtu}`,
    `addr add ${MASQUERADE.gateway}/${MASQUERADE.prefix} dev ${BRIDGE}`,
    tuntapAdd(owner),
    `link set ${TAP} mtu ${mtu} master ${BRIDGE} up`,
    `link set ${BRIDGE} up`,
    `route add 255.255.255.255/32 dev ${BRIDGE}`,
  ];
}

function bridgeLinks(pod: PodLinkInfo, owner: BindingInput['tapOwner']): string[] {
  return [
    `link add ${BRIDGE} type bridge`,
    `link set ${BRIDGE} mtu ${pod.mtu}`,
    `addr del ${pod.podIP}/${pod.prefix} dev ${POD_LINK}`,
    `link set ${POD_LINK} master ${BRIDGE}`,
    // the node bridge hairpins the guest's broadcasts back through eth0: were k6t-eth0 to learn the
    // guest's MAC from those echoes, it would send the guest's traffic back out of eth0 until the
    // guest spoke again (tens of seconds of silence). KubeVirt turns learning off on this port too.
    `link set dev ${POD_LINK} type bridge_slave learning off`,
    tuntapAdd(owner),
    `link set ${TAP} mtu ${pod.mtu} master ${BRIDGE} up`,
    `addr add ${BRIDGE_SERVER_IP}/32 dev ${BRIDGE}`,
    `link set ${BRIDGE} up`,
    `route add 255.255.255.255/32 dev ${BRIDGE}`,
  ];
}

function lease(input: BindingInput): GuestLease {
  const common = { mac: input.mac, dns: input.dns, search: input.search, hostname: input.hostname, mtu: input.pod.mtu, leaseSeconds: INFINITE_LEASE };
  if (input.kind === 'masquerade') {
    return { ...common, ip: MASQUERADE.guest, prefix: MASQUERADE.prefix, subnetMask: prefixToMask(MASQUERADE.prefix), router: MASQUERADE.gateway, serverId: MASQUERADE.gateway };
  }
  const { podIP, prefix, gateway } = input.pod;
  return { ...common, ip: podIP, prefix, subnetMask: prefixToMask(prefix), router: gateway, serverId: BRIDGE_SERVER_IP };
}

export function planBinding(input: BindingInput): BindingPlan {
  const ipBatch = input.kind === 'masquerade' ? masqueradeLinks(input.pod.mtu, input.tapOwner) : bridgeLinks(input.pod, input.tapOwner);
  const nft = renderBindingRuleset({
    kind: input.kind, podIP: input.pod.podIP, guest: MASQUERADE.guest, guestCidr: MASQUERADE.cidr,
    ports: input.ports, launcherPorts: input.launcherPorts,
  });
  return { kind: input.kind, tap: TAP, ipBatch, nft, lease: lease(input) };
}

/** nameservers and search domains of a resolv.conf (the Pod's, which `ip netns exec` binds over /etc/resolv.conf) */
export function parseResolvConf(text: string): { nameservers: string[]; search: string[] } {
  const nameservers: string[] = [];
  let search: string[] = [];
  for (const raw of text.split('\n')) {
    const [key, ...rest] = raw.replace(/[#;].*$/, '').trim().split(/\s+/);
    if (key === 'nameserver' && rest[0] && /^\d+\.\d+\.\d+\.\d+$/.test(rest[0]) && !rest[0].startsWith('127.')) nameservers.push(rest[0]);
    if (key === 'search' || key === 'domain') search = rest.filter(Boolean);
  }
  return { nameservers, search };
}
