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

/**
 * Create the pod's namespace with lo up and eth0 (ip/prefix, default route via the bridge). Idempotent.
 * Two `ip -batch` processes on the fresh path (the host's side, then the namespace's), not one `ip`
 * per step: each process start costs 5-50 ms on a loaded machine and the kubelet waits for them.
 */
export function createPodNetns(s: PodNetnsSpec): void {
  const existed = existsSync(`${NETNS_DIR}/${s.netns}`);
  if (s.dnsNamespace) writePodResolvConf(s.netns, s.dnsNamespace);
  if (existed && run('ip', ['-n', s.netns, '-o', 'link', 'show']).includes(' eth0')) {
    run('ip', ['-n', s.netns, 'link', 'set', 'lo', 'up']);
    return;
  }
  run('ip', ['-batch', '-'], batch(hostSideCommands(s, existed, existsSync(`/sys/class/net/${s.hostVeth}`))));
  run('ip', ['-n', s.netns, '-batch', '-'], batch(podSideCommands(s)));
}

const batch = (lines: string[]) => `${lines.join('\n')}\n`;

/** PURE: the host's `ip -batch` lines: the namespace (`netns add` runs in batch mode), the veth into it, its bridge port */
export function hostSideCommands(s: PodNetnsSpec, netnsExists: boolean, staleVeth: boolean): string[] {
  return [
    ...(netnsExists ? [] : [`netns add ${s.netns}`]),
    ...(staleVeth ? [`link del ${s.hostVeth}`] : []),
    `link add ${s.hostVeth} type veth peer name eth0 netns ${s.netns}`,
    `link set ${s.hostVeth} master ${s.bridge} up`,
    // hairpin: a Pod reaching a Service that picks the Pod itself gets its packet back through its own port
    `link set ${s.hostVeth} type bridge_slave hairpin on`,
  ];
}

/** PURE: the `ip -n <netns> -batch` lines: lo, eth0's address, eth0 up, the default route */
export function podSideCommands(s: PodNetnsSpec): string[] {
  return ['link set lo up', `addr add ${s.ip}/${s.prefix} dev eth0`, 'link set eth0 up', `route add default via ${s.gateway}`];
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
