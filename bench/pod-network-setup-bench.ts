/**
 * What the pod network adds to a VMI's start, per launcher Pod (issue 12, goal ≤ 50 ms): the process
 * kubelet's part (`PodNetwork.attach`: address, netns, veth into the node bridge, address, routes,
 * resolv.conf) and the launcher's part (masquerade binding in that namespace: read eth0, plan,
 * `ip -batch` + `nft -f`, DHCP socket; the `setupMs` the launcher logs). Both run on real kernel
 * objects of a node of its own (its own pod range and bridge); nothing of a cluster is needed.
 * Prints median and p90 of each part and of their sum. Needs root.
 * Usage: node --import tsx bench/pod-network-setup-bench.ts [pods=15]
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PodNetwork } from '../server/node/network/pod-network';

const PODS = Number(process.argv[2] ?? 15);
const ENTRY = join(import.meta.dirname, '..', 'server', 'virt-launcher', 'network', 'testdata', 'bind-in-netns.ts');
const out = (s: string) => process.stdout.write(`${s}\n`);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const fmt = (xs: number[]) => `median ${pct(xs, 0.5).toFixed(1)} ms, p90 ${pct(xs, 0.9).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})`;

/** the launcher's binding in `netns`: its own setupMs; the binding stays until the child's stdin closes */
function bindIn(netns: string, podIP: string): Promise<{ setupMs: number; stop: () => void }> {
  const vmi = { metadata: { name: 'bench', namespace: 'default', uid: randomUUID() }, spec: { domain: { devices: { interfaces: [{ name: 'default', masquerade: {} }] } }, networks: [{ name: 'default', pod: {} }] } };
  const p = spawn('ip', ['netns', 'exec', netns, process.execPath, '--import', 'tsx', ENTRY, JSON.stringify(vmi), podIP], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: p.stdout! }).once('line', (line) => resolve({ setupMs: (JSON.parse(line) as { setupMs: number }).setupMs, stop: () => p.stdin!.end() }));
    p.once('exit', (code) => reject(new Error(`binding in ${netns} exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kv-podnet-bench-'));
  const net = new PodNetwork({ nodeName: 'bench-podnet', nodeDir: dir });
  const uids: string[] = [];
  const stops: (() => void)[] = [];
  try {
    net.ensureNode();
    out(`pod network set-up bench: ${PODS} Pods on ${net.bridge} (${net.podCidr})`);
    const kubelet: number[] = [];
    const launcher: number[] = [];
    for (let i = 0; i < PODS; i++) {
      const uid = randomUUID();
      uids.push(uid);
      const t0 = performance.now();
      const { ip, netns } = net.attach(uid, 'default');
      kubelet.push(performance.now() - t0);
      const b = await bindIn(netns, ip);
      stops.push(b.stop);
      launcher.push(b.setupMs);
    }
    out(`kubelet attach (netns, veth, address, route, resolv.conf): ${fmt(kubelet)}`);
    out(`launcher masquerade binding (eth0 read, ip -batch, nft -f, DHCP socket): ${fmt(launcher)}`);
    out(`added to a VMI's start: ${fmt(kubelet.map((k, i) => k + launcher[i]))} (goal ≤ 50 ms)`);
  } finally {
    for (const s of stops) s();
    for (const uid of uids) net.detach(uid);
    net.teardown();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (err: unknown) => { process.stderr.write(`${(err as Error).stack ?? String(err)}\n`); process.exit(1); });
