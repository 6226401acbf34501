import { existsSync, readdirSync } from 'node:fs';
import { run, tryRun } from './ip-command';
import { removePodResolvConf, writePodResolvConf } from './pod-resolv-conf';

const NETNS_DIR = '/run/netns';

/** The network namespace name of a pod: kv-<node tag>-<uid prefix> (ip netns). */
export function netnsName(nodeTag: string, uid: string): string {
  return `kv-${nodeTag}-${uid.replace(/-/g, '').slice(0, 12)}`;
}

/** The host end of a pod's veth pair (≤ 15 characters, unique per pod). */
export function hostVethName(uid: string): string {
  return `kvv${uid.replace(/-/g, '').slice(0, 11)}`;
}

export interface PodNetnsSpec {
  netns: string;
  hostVeth: string;
  bridge: string;
  ip: string;
  prefix: number;
  gateway: string;
  /** the Pod's namespace: its resolv.conf points at the cluster DNS with this search list (none: the host's) */
  dnsNamespace?: string;
}

/** Create the pod's namespace with lo up and eth0 (ip/prefix, default route via the bridge). Idempotent. */
export function createPodNetns(s: PodNetnsSpec): void {
  if (!existsSync(`${NETNS_DIR}/${s.netns}`)) run('ip', ['netns', 'add', s.netns]);
  if (s.dnsNamespace) writePodResolvConf(s.netns, s.dnsNamespace);
  const inNs = (args: string[]) => run('ip', ['-n', s.netns, ...args]);
  inNs(['link', 'set', 'lo', 'up']);
  if (run('ip', ['-n', s.netns, '-o', 'link', 'show']).includes(' eth0')) return;
  tryRun('ip', ['link', 'del', s.hostVeth]);
  run('ip', ['link', 'add', s.hostVeth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', s.netns]);
  run('ip', ['link', 'set', s.hostVeth, 'master', s.bridge, 'up']);
  // hairpin: a Pod reaching a Service that picks the Pod itself gets its packet back through its own port
  run('ip', ['link', 'set', s.hostVeth, 'type', 'bridge_slave', 'hairpin', 'on']);
  inNs(['addr', 'add', `${s.ip}/${s.prefix}`, 'dev', 'eth0']);
  inNs(['link', 'set', 'eth0', 'up']);
  inNs(['route', 'add', 'default', 'via', s.gateway]);
}

/** Remove the namespace (its eth0 and so the veth pair go with it) and its /etc/netns files. */
export function deletePodNetns(netns: string, hostVeth?: string): void {
  tryRun('ip', ['netns', 'del', netns]);
  removePodResolvConf(netns);
  if (hostVeth) tryRun('ip', ['link', 'del', hostVeth]);
}

/** The namespaces this node tag owns (for restart cleanup). */
export function listNodeNetns(nodeTag: string): string[] {
  try {
    return readdirSync(NETNS_DIR).filter((n) => n.startsWith(`kv-${nodeTag}-`));
  } catch {
    return [];
  }
}

/** Prefix a command so it runs in the pod's namespace (ip netns exec execs, so the pid is the command's). */
export function inNetns(netns: string, file: string, args: string[]): { file: string; args: string[] } {
  return { file: 'ip', args: ['netns', 'exec', netns, file, ...args] };
}
