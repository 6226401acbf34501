/**
 * Carries out a BindingPlan inside the launcher's Pod namespace (the launcher runs there as root):
 * reads eth0 from the kernel, runs the `ip -batch` lines, turns on forwarding, loads the nft table.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { BRIDGE, POD_LINK, TAP, type PodLinkInfo } from './binding-plan';

export function runTool(file: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} ${args.join(' ')}: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
    // a tool that exits without reading its input (an error, or `ip addr show`) must not crash us with EPIPE
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}

/** the default gateway from /proc/net/route (this namespace's), little-endian hex */
export function parseDefaultGateway(procNetRoute: string, dev: string): string | undefined {
  for (const line of procNetRoute.split('\n').slice(1)) {
    const [iface, dest, gw] = line.trim().split(/\s+/);
    if (iface !== dev || dest !== '00000000' || !gw) continue;
    const n = parseInt(gw, 16);
    return [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255].join('.');
  }
  return undefined;
}

interface IpAddrJson { mtu?: number; addr_info?: { family?: string; local?: string; prefixlen?: number }[] }

/**
 * eth0 as it is now; undefined when this namespace has no eth0 carrying `podIP` (a bridge binding
 * already took it). Read with `ip`, not os.networkInterfaces(): libuv leaves out links without
 * carrier, and a fresh veth may not have it yet.
 */
export async function readPodLink(podIP: string): Promise<PodLinkInfo | undefined> {
  const links = JSON.parse(await runTool('ip', ['-j', '-4', 'addr', 'show', 'dev', POD_LINK]).catch(() => '[]')) as IpAddrJson[];
  const addr = links[0]?.addr_info?.find((a) => a.local === podIP);
  if (!addr?.prefixlen) return undefined;
  const gateway = parseDefaultGateway(readFileSync('/proc/net/route', 'utf8'), POD_LINK);
  return { podIP, prefix: addr.prefixlen, gateway, mtu: links[0].mtu ?? 1500 };
}

/** Leftovers of an earlier launcher in the same Pod (a container restart) go first. */
async function removeLeftovers(): Promise<void> {
  for (const link of [TAP, BRIDGE]) {
    if (existsSync(`/sys/class/net/${link}`)) await runTool('ip', ['link', 'del', link]);
  }
}

export async function applyBinding(plan: { ipBatch: string[]; nft: string; kind: string }): Promise<void> {
  await removeLeftovers();
  if (plan.kind === 'masquerade') writeFileSync('/proc/sys/net/ipv4/ip_forward', '1');
  // the rules name links (iifname), not indexes, so both tools can run at once
  await Promise.all([runTool('ip', ['-batch', '-'], plan.ipBatch.join('\n') + '\n'), runTool('nft', ['-f', '-'], plan.nft)]);
}

/** vhost-net accelerates the tap when the kernel offers it */
export function vhostAvailable(): boolean {
  return existsSync('/dev/vhost-net');
}
