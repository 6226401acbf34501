import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { CLUSTER_DOMAIN, DNS_SERVICE } from '../../network/service-model';

/** `ip netns exec <netns>` bind-mounts the files of this directory over /etc (so /etc/resolv.conf). */
export const NETNS_ETC = '/etc/netns';

/** A Pod's resolv.conf with dnsPolicy ClusterFirst: the cluster DNS, its namespace's search list, ndots 5. */
export function renderPodResolvConf(namespace: string): string {
  return [
    `search ${namespace}.svc.${CLUSTER_DOMAIN} svc.${CLUSTER_DOMAIN} ${CLUSTER_DOMAIN}`,
    `nameserver ${DNS_SERVICE.clusterIP}`,
    'options ndots:5',
    '',
  ].join('\n');
}

export function writePodResolvConf(netns: string, namespace: string): void {
  mkdirSync(`${NETNS_ETC}/${netns}`, { recursive: true });
  writeFileSync(`${NETNS_ETC}/${netns}/resolv.conf`, renderPodResolvConf(namespace));
}

export function removePodResolvConf(netns: string): void {
  rmSync(`${NETNS_ETC}/${netns}`, { recursive: true, force: true });
}

/** The namespace whose search list a Pod's resolv.conf gets, or undefined for `dnsPolicy: Default` (the host's resolvers). */
export function clusterDnsNamespace(pod: { metadata?: { namespace?: string }; spec?: { dnsPolicy?: string } }): string | undefined {
  return pod.spec?.dnsPolicy === 'Default' ? undefined : (pod.metadata?.namespace ?? 'default');
}
