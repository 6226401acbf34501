import { CLUSTER_POD_CIDR, DNS_SERVICE, KUBERNETES_CLUSTER_IP } from '../../network/service-model';

/** What the node's nftables table is rendered from. */
export interface NodeRulesInput {
  table: string;
  bridge: string;
  podCidr: string;
}

/**
 * The node's pod-network table (one `inet` table, replaced atomically):
 * - input: nothing that arrives from the pod bridge may open a host socket (the API server,
 *   handler, migration and NBD ports listen on the host), except replies to the host's own
 *   connections and DHCP/ICMP errors, and the cluster DNS (10.96.0.10 port 53, UDP and TCP, served
 *   on the host by server/network/dns), and connections a pod opened to the `kubernetes` Service
 *   (10.96.0.1, DNATed by the service proxy to the API server's advertise address on the host);
 *   loopback addresses are never accepted from the bridge.
 * - forward: pods may leave through any other interface; replies come back.
 * - postrouting: pod traffic leaving the pod network (10.244.0.0/16) is masqueraded to the host's
 *   address; between the pods of two nodes it keeps its source, as Kubernetes' network model asks.
 */
export function renderNodeRules(i: NodeRulesInput): string {
  return [
    `table inet ${i.table} {`,
    `  chain input {`,
    `    type filter hook input priority filter; policy accept;`,
    `    iifname "${i.bridge}" ct state established,related accept`,
    `    iifname "${i.bridge}" ip daddr ${DNS_SERVICE.clusterIP} meta l4proto { tcp, udp } th dport 53 accept`,
    `    iifname "${i.bridge}" ct original ip daddr ${KUBERNETES_CLUSTER_IP} meta l4proto tcp accept`,
    `    iifname "${i.bridge}" drop`,
    `  }`,
    `  chain forward {`,
    `    type filter hook forward priority filter; policy accept;`,
    `    iifname "${i.bridge}" ip daddr 127.0.0.0/8 drop`,
    `    ct state established,related accept`,
    `    iifname "${i.bridge}" accept`,
    `    oifname "${i.bridge}" accept`,
    `  }`,
    `  chain postrouting {`,
    `    type nat hook postrouting priority srcnat; policy accept;`,
    `    ip saddr ${i.podCidr} ip daddr != ${CLUSTER_POD_CIDR} masquerade`,
    `  }`,
    `}`,
    '',
  ].join('\n');
}

/** A script for `nft -f -` that replaces the table whether or not it exists. */
export function renderReplaceScript(i: NodeRulesInput): string {
  return `table inet ${i.table}\ndelete table inet ${i.table}\n${renderNodeRules(i)}`;
}
