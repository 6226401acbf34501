import { writeFileSync } from 'node:fs';
import { run } from './ip-command';
import { renderReplaceScript } from './nft-ruleset';

export interface NodeBridgeSpec {
  bridge: string;
  gateway: string;
  prefix: number;
  podCidr: string;
  table: string;
}

/** The node's bridge (gateway address = the pod range's .1), IPv4 forwarding on, the nftables table in place. */
export function ensureNodeBridge(s: NodeBridgeSpec): void {
  const links = run('ip', ['-o', 'link', 'show']);
  if (!links.includes(` ${s.bridge}:`)) run('ip', ['link', 'add', s.bridge, 'type', 'bridge']);
  const addrs = run('ip', ['-o', 'addr', 'show', 'dev', s.bridge]);
  if (!addrs.includes(` ${s.gateway}/`)) run('ip', ['addr', 'add', `${s.gateway}/${s.prefix}`, 'dev', s.bridge]);
  run('ip', ['link', 'set', s.bridge, 'up']);
  writeFileSync('/proc/sys/net/ipv4/ip_forward', '1');
  run('nft', ['-f', '-'], renderReplaceScript({ table: s.table, bridge: s.bridge, podCidr: s.podCidr }));
}

/** Remove the bridge and the table (tests and `kv down`). */
export function removeNodeBridge(bridge: string, table: string): void {
  try {
    run('nft', ['delete', 'table', 'inet', table]);
  } catch {
    // already gone
  }
  try {
    run('ip', ['link', 'del', bridge]);
  } catch {
    // already gone
  }
}
