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

/** a /proc/net/route address (little-endian hex) as a dotted quad */
const routeAddress = (hex: string) => {
  const n = parseInt(hex, 16);
  return [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255].join('.');
};

const rows = (procNetRoute: string) => procNetRoute.split('\n').slice(1).map((l) => l.trim().split(/\s+/)).filter((r) => r.length >= 8);

/** the default gateway from /proc/net/route (this namespace's), little-endian hex */
export function parseDefaultGateway(procNetRoute: string, dev: string): string | undefined {
  const row = rows(procNetRoute).find(([iface, dest, gw]) => iface === dev && dest === '00000000' && gw);
  return row ? routeAddress(row[2]) : undefined;
}

const ipNumber = (ip: string) => ip.split('.').reduce((n, o) => ((n << 8) | Number(o)) >>> 0, 0);

/**
 * The prefix length of `dev`'s connected route that holds `ip` (the route the kernel adds with the
 * address; it is listed without carrier too), from /proc/net/route.
 */
export function parseConnectedPrefix(procNetRoute: string, dev: string, ip: string): number | undefined {
  for (const [iface, dest, gw, , , , , mask] of rows(procNetRoute)) {
    if (iface !== dev || gw !== '00000000' || dest === '00000000') continue;
    const m = ipNumber(routeAddress(mask));
    if (((ipNumber(ip) & m) >>> 0) === ipNumber(routeAddress(dest))) return m.toString(2).replace(/0/g, '').length;
  }
  return undefined;
}

/**
 * eth0 as it is now; undefined when this namespace's eth0 has no address in `podIP`'s subnet (a
 * bridge binding already took it). Read from /proc/net/route and /sys/class/net (`ip netns exec`
 * mounts the namespace's sysfs), not with an `ip` process (5-50 ms on a loaded machine, and the
 * guest waits for it) nor os.networkInterfaces() (libuv leaves out links without carrier, and a
 * fresh veth may not have it yet).
 */
export async function readPodLink(podIP: string): Promise<PodLinkInfo | undefined> {
  const route = readFileSync('/proc/net/route', 'utf8');
  const prefix = parseConnectedPrefix(route, POD_LINK, podIP);
  if (!prefix) return undefined;
  const mtu = Number(readFileSync(`/sys/class/net/${POD_LINK}/mtu`, 'utf8').trim()) || 1500;
  return { podIP, prefix, gateway: parseDefaultGateway(route, POD_LINK), mtu };
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
