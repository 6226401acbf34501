/**
 * The launcher's bindings on real kernel objects, without QEMU: a "node" namespace, a Pod namespace
 * whose eth0 is a veth to it (as the process kubelet makes), and a "guest" namespace plugged into the
 * Pod's bridge k6t-eth0 in place of QEMU's tap. The guest runs busybox udhcpc against our DHCP server.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { podNetworkUnavailableReason } from '../../node/network/pod-network';

const ENTRY = join(__dirname, 'testdata', 'bind-in-netns.ts');
const MAC = '02:5a:00:00:00:07';
const hasBusybox = (() => { try { execFileSync('busybox', ['udhcpc', '--help'], { stdio: 'ignore' }); return true; } catch { return false; } })();

const sh = (args: string[], input?: string) => execFileSync(args[0], args.slice(1), { input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
const inNs = (ns: string, args: string[]) => sh(['ip', 'netns', 'exec', ns, ...args]);

/** node -e in a namespace: what a TCP server at host:port says, or the error code */
function dial(ns: string, host: string, port: number): string {
  const js = `const s=require('net').connect({host:'${host}',port:${port},timeout:2000});let g='';s.on('data',d=>g+=d);s.on('end',()=>console.log(g.trim()));s.on('timeout',()=>{console.log('ETIMEDOUT');process.exit()});s.on('error',e=>console.log(e.code))`;
  return inNs(ns, ['node', '-e', js]).trim();
}

/** a TCP server in a namespace that answers "<tag> <peer address>" */
function serve(ns: string, host: string, port: number, tag: string): ChildProcess {
  const js = `require('net').createServer(s=>s.end('${tag} '+s.remoteAddress.replace('::ffff:','')+'\\n')).listen(${port},'${host}',()=>console.log('up'))`;
  return spawn('ip', ['netns', 'exec', ns, 'node', '-e', js], { stdio: ['ignore', 'pipe', 'inherit'] });
}
/** the first line a child prints; an exit before it fails the test at once */
const firstLine = (p: ChildProcess) => new Promise<string>((resolve, reject) => {
  createInterface({ input: p.stdout! }).once('line', resolve);
  p.once('exit', (code) => reject(new Error(`${p.spawnargs.join(' ').slice(0, 120)} exited with ${code} before printing`)));
});

interface Topology { node: string; pod: string; guest: string; podIP: string; gw: string; dir: string; procs: ChildProcess[] }
let topo: Topology | undefined;

function build(): Topology {
  const r = randomBytes(3).toString('hex');
  const octet = 100 + (randomBytes(1)[0] % 100);
  const t: Topology = { node: `kvb-n-${r}`, pod: `kvb-p-${r}`, guest: `kvb-g-${r}`, podIP: `10.251.${octet}.5`, gw: `10.251.${octet}.1`, dir: join(tmpdir(), `kvb-${r}`), procs: [] };
  for (const ns of [t.node, t.pod, t.guest]) sh(['ip', 'netns', 'add', ns]);
  sh(['ip', 'link', 'add', `kvbn${r}`, 'netns', t.node, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', t.pod]);
  // the node's end joins a bridge with hairpin on, as the process kubelet plugs Pods (pod-netns.ts)
  inNs(t.node, ['ip', 'link', 'add', 'kvb-br', 'type', 'bridge']);
  inNs(t.node, ['ip', 'link', 'set', `kvbn${r}`, 'master', 'kvb-br', 'up']);
  inNs(t.node, ['ip', 'link', 'set', 'dev', `kvbn${r}`, 'type', 'bridge_slave', 'hairpin', 'on']);
  inNs(t.node, ['ip', 'addr', 'add', `${t.gw}/24`, 'dev', 'kvb-br']);
  inNs(t.node, ['ip', 'link', 'set', 'kvb-br', 'up']);
  inNs(t.pod, ['ip', 'addr', 'add', `${t.podIP}/24`, 'dev', 'eth0']);
  inNs(t.pod, ['ip', 'link', 'set', 'eth0', 'up']);
  inNs(t.pod, ['ip', 'route', 'add', 'default', 'via', t.gw]);
  // `ip netns exec` binds /etc/netns/<ns>/resolv.conf over /etc/resolv.conf: the Pod's DNS
  mkdirSync(`/etc/netns/${t.pod}`, { recursive: true });
  writeFileSync(`/etc/netns/${t.pod}/resolv.conf`, 'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n');
  mkdirSync(t.dir, { recursive: true });
  return t;
}

/** the launcher's part, then the guest NIC (a veth with the guest MAC) on k6t-eth0 */
async function bind(t: Topology, iface: Record<string, unknown>, tapOwner?: string): Promise<{ setupMs: number; kind: string; tapOwner: number[] }> {
  const vmi = { metadata: { name: 'vm-x', namespace: 'default', uid: 'u-1' }, spec: { domain: { devices: { interfaces: [iface] } }, networks: [{ name: 'default', pod: {} }] } };
  const p = spawn('ip', ['netns', 'exec', t.pod, process.execPath, '--import', 'tsx', ENTRY, JSON.stringify(vmi), t.podIP, ...(tapOwner ? [tapOwner] : [])], { stdio: ['pipe', 'pipe', 'inherit'] });
  t.procs.push(p);
  const out = JSON.parse(await firstLine(p)) as { setupMs: number; kind: string; tapOwner: number[] };
  const link = `kvbg${t.guest.slice(-6)}`;
  sh(['ip', 'link', 'add', link, 'netns', t.pod, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', t.guest, 'address', MAC]);
  inNs(t.pod, ['ip', 'link', 'set', link, 'master', 'k6t-eth0', 'up']);
  inNs(t.guest, ['ip', 'link', 'set', 'eth0', 'up']);
  inNs(t.guest, ['ip', 'link', 'set', 'lo', 'up']);
  return out;
}

/** busybox udhcpc in the guest: configures eth0 from the lease and prints what it got */
function dhcp(t: Topology): Record<string, string> {
  const script = join(t.dir, 'udhcpc.sh');
  writeFileSync(script, `#!/bin/sh
[ "$1" = bound ] || exit 0
ip addr add $ip/$mask dev $interface
[ -n "$router" ] && ip route add default via $router
echo "ip=$ip mask=$mask router=$router dns=$dns domain=$domain search=$search hostname=$hostname mtu=$mtu lease=$lease serverid=$serverid"
`);
  chmodSync(script, 0o755);
  const out = inNs(t.guest, ['busybox', 'udhcpc', '-i', 'eth0', '-f', '-q', '-n', '-t', '5', '-T', '1', '-s', script, '-O', 'search']);
  const line = out.split('\n').find((l) => l.startsWith('ip=')) ?? '';
  return Object.fromEntries([...line.matchAll(/(\w+)=(\S*)/g)].map((m) => [m[1], m[2]]));
}

afterEach(() => {
  if (!topo) return;
  for (const p of topo.procs) p.kill('SIGKILL');
  for (const ns of [topo.node, topo.pod, topo.guest]) { try { sh(['ip', 'netns', 'del', ns]); } catch { /* gone */ } }
  rmSync(`/etc/netns/${topo.pod}`, { recursive: true, force: true });
  rmSync(topo.dir, { recursive: true, force: true });
  topo = undefined;
});

describe.skipIf(podNetworkUnavailableReason() !== undefined || !hasBusybox)('launcher bindings in a Pod namespace (real netns, bridge, nftables, udhcpc)', () => {
  it('masquerade: the guest leases 10.0.2.2 with the Pod DNS, is reached on the Pod IP, reaches the node masqueraded, and not the launcher', async () => {
    const t = (topo = build());
    const { setupMs, kind, tapOwner } = await bind(t, { name: 'default', masquerade: {}, macAddress: MAC }, '107:107');
    expect(kind).toBe('masquerade');
    // QEMU runs as 107: the tap is its (the tun driver lets only its owner attach)
    expect(tapOwner).toEqual([107, 107]);
    process.stdout.write(`masquerade binding set-up in the Pod namespace: ${setupMs} ms\n`);
    const lease = dhcp(t);
    expect(lease).toMatchObject({ ip: '10.0.2.2', mask: '24', router: '10.0.2.1', dns: '10.96.0.10', domain: 'default.svc.cluster.local', hostname: 'vm-x', serverid: '10.0.2.1', mtu: '1500' });
    expect(lease.search).toContain('svc.cluster.local');
    const procs = [serve(t.guest, '0.0.0.0', 8080, 'guest'), serve(t.node, t.gw, 9090, 'node'), serve(t.pod, t.podIP, 49152, 'launcher')];
    t.procs.push(...procs);
    await Promise.all(procs.map(firstLine));
    // inbound: no declared ports → every port but the launcher's own goes to the guest
    expect(dial(t.node, t.podIP, 8080)).toBe(`guest ${t.gw}`);
    expect(dial(t.node, t.podIP, 49152)).toBe(`launcher ${t.gw}`);
    // egress: the node sees the Pod IP
    expect(dial(t.guest, t.gw, 9090)).toBe(`node ${t.podIP}`);
    // the guest cannot open the launcher's listener through its gateway or the Pod IP
    expect(dial(t.guest, '10.0.2.1', 49152)).toBe('ETIMEDOUT');
    expect(dial(t.guest, t.podIP, 49152)).toBe('ETIMEDOUT');
  });

  it('masquerade with declared ports forwards only those', async () => {
    const t = (topo = build());
    await bind(t, { name: 'default', masquerade: {}, macAddress: MAC, ports: [{ name: 'http', port: 8080 }] });
    dhcp(t);
    const procs = [serve(t.guest, '0.0.0.0', 8080, 'guest'), serve(t.guest, '0.0.0.0', 8081, 'hidden')];
    t.procs.push(...procs);
    await Promise.all(procs.map(firstLine));
    expect(dial(t.node, t.podIP, 8080)).toBe(`guest ${t.gw}`);
    expect(dial(t.node, t.podIP, 8081)).toBe('ECONNREFUSED');
  });

  it('bridge: the guest leases the Pod IP and gateway and answers on the Pod IP itself', async () => {
    const t = (topo = build());
    const { setupMs, tapOwner } = await bind(t, { name: 'default', bridge: {}, macAddress: MAC.toUpperCase() });
    expect(tapOwner).toEqual([-1, -1]); // QEMU keeps root: no owner
    process.stdout.write(`bridge binding set-up in the Pod namespace: ${setupMs} ms\n`);
    const lease = dhcp(t);
    expect(lease).toMatchObject({ ip: t.podIP, mask: '24', router: t.gw, dns: '10.96.0.10', serverid: '169.254.75.10' });
    const p = serve(t.guest, '0.0.0.0', 8080, 'guest');
    t.procs.push(p);
    await firstLine(p);
    expect(dial(t.node, t.podIP, 8080)).toBe(`guest ${t.gw}`);
    expect(inNs(t.pod, ['ip', '-4', 'addr', 'show', 'dev', 'eth0'])).not.toContain(t.podIP);
    // a broadcast from the guest (here an ARP request; in a real guest its periodic ARP) comes back
    // through eth0 from the node bridge's hairpin port: the guest stays reachable on the Pod IP
    // (k6t-eth0 learning the guest's MAC on eth0 blackholed it until the guest spoke again)
    inNs(t.guest, ['busybox', 'arping', '-c', '1', '-w', '2', '-I', 'eth0', t.gw]);
    expect(inNs(t.pod, ['bridge', 'fdb', 'show', 'br', 'k6t-eth0'])).not.toMatch(new RegExp(`${MAC} dev eth0 `, 'i'));
    expect(dial(t.node, t.podIP, 8080)).toBe(`guest ${t.gw}`);
  });
});
