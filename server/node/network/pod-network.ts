import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Ipam, cidrString, gatewayOf, parseCidr } from './ipam';
import { claimPodCidrIndex, type PodCidrClaim } from './pod-cidr-claim';
import { ensureNodeBridge, removeNodeBridge } from './node-bridge';
import { createPodNetns, deletePodNetns, hostVethName, inNetns, listNodeNetns, netnsName } from './pod-netns';

export interface PodNetworkOptions {
  nodeName: string;
  nodeDir: string;
}

/** Why the machine cannot run the pod network (not root, no iproute2/nftables), or undefined when it can. */
export function podNetworkUnavailableReason(): string | undefined {
  if (process.getuid?.() !== 0) return 'the kubelet is not root, so it cannot create network namespaces';
  const tools = ['ip', 'nft'].filter((t) => !['/usr/sbin', '/usr/bin', '/sbin', '/bin'].some((d) => existsSync(join(d, t))));
  if (tools.length) return `missing ${tools.join(', ')} (install iproute2 and nftables)`;
  return undefined;
}

/** A pod's place on the pod network. */
export interface PodAttachment {
  ip: string;
  netns: string;
}

/**
 * The embedded kubelet's CNI-like part: one bridge per node (its pod range's .1 as gateway), one
 * network namespace per pod joined by a veth, host-local IPAM under `<node dir>/network/ipam`,
 * masquerade for pod egress and no way from a pod to a host socket (nft-ruleset.ts).
 */
export class PodNetwork {
  readonly podCidr: string;
  readonly bridge: string;
  readonly table: string;
  private readonly tag: string;
  private readonly ipam: Ipam;
  private readonly claim: PodCidrClaim;

  constructor(opts: PodNetworkOptions) {
    // a range no other embedded node on this host uses (pod-cidr-claim.ts); node-1 → 10.244.1.0/24 when free
    this.claim = claimPodCidrIndex({ nodeName: opts.nodeName, nodeDir: opts.nodeDir });
    this.podCidr = `10.244.${this.claim.index}.0/24`;
    this.tag = String(parseCidr(this.podCidr).base % 65536 >> 8);
    this.bridge = `kv-br${this.tag}`;
    this.table = `kv-node${this.tag}`;
    this.ipam = new Ipam(join(opts.nodeDir, 'network', 'ipam'), parseCidr(this.podCidr));
  }

  ensureNode(): void {
    const c = this.ipam.cidr;
    ensureNodeBridge({ bridge: this.bridge, gateway: gatewayOf(c), prefix: c.prefix, podCidr: cidrString(c), table: this.table });
  }

  /** Create (or find) the pod's namespace and address; with `dnsNamespace` its resolv.conf uses the cluster DNS. */
  attach(uid: string, dnsNamespace?: string): PodAttachment {
    const ip = this.ipam.allocate(uid);
    const netns = netnsName(this.tag, uid);
    const c = this.ipam.cidr;
    createPodNetns({ netns, hostVeth: hostVethName(uid), bridge: this.bridge, ip, prefix: c.prefix, gateway: gatewayOf(c), dnsNamespace });
    return { ip, netns };
  }

  /** The address recorded for the pod, if it has one. */
  ipOf(uid: string): string | undefined {
    return this.ipam.allocations().get(uid);
  }

  detach(uid: string): void {
    deletePodNetns(netnsName(this.tag, uid), hostVethName(uid));
    this.ipam.release(uid);
  }

  /** After a restart: drop namespaces and addresses of pods this node no longer runs. */
  cleanupStale(liveUids: ReadonlySet<string>): string[] {
    const live = new Set([...liveUids].map((u) => netnsName(this.tag, u)));
    const removed = listNodeNetns(this.tag).filter((n) => !live.has(n));
    removed.forEach((n) => deletePodNetns(n));
    for (const uid of this.ipam.allocations().keys()) if (!liveUids.has(uid)) this.ipam.release(uid);
    return removed;
  }

  wrap(netns: string, file: string, args: string[]): { file: string; args: string[] } {
    return inNetns(netns, file, args);
  }

  /** Tear the node's bridge and table down (tests). */
  removeNode(): void {
    removeNodeBridge(this.bridge, this.table);
  }

  /** When the kubelet stops with its pods: the bridge, the table and the pod range's claim go (nothing left on the host). */
  teardown(): void {
    this.removeNode();
    this.claim.release();
  }
}
