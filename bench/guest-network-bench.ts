/**
 * Guest-to-guest networking against its floor (issue 12). Ours: two demo guests on two nodes of a
 * `kv up --nodes 2` with the pod network, masquerade binding — the path a user gets (guest → tap0 →
 * k6t-eth0 → NAT → veth → kv-br1 → route → kv-br2 → veth → DNAT → tap0 → guest). The floor: two bare
 * QEMUs of the same guest, same QEMU arguments and NIC (virtio-net-pci on a tap, TCG), whose taps sit
 * on one plain bridge in a namespace of their own (bench/raw-tap-pair.ts). All four guests run at
 * once and the measurements alternate ours / floor, so both see the same load on this shared machine.
 *
 * Prints per run: TCP throughput A → B (MiB/s, `mib` MiB on one connection, timed by the receiver);
 * then an HTTP request loop (busybox nc → `nc -ll -e echo`; ms per request, a process on each side per request, with
 * the same loop against the guest's own loopback as the process-cost baseline) and ping; and ours
 * as a share of the floor (goal ≥ 80 % throughput). Needs root and the pod network.
 * Usage: node --import tsx bench/guest-network-bench.ts [MiB=64] [runs=3]
 */
import { startLifecycleCluster, type LifecycleCluster } from '../e2e/support/lifecycle-cluster';
import { openGuestShell, type GuestShell } from '../e2e/support/guest-shell';
import { callRest, until, VMIS } from '../e2e/support/rest';
import { dataPaths } from '../server/data-dir';
import { askEcho, pingAvgMs, requestLoopMs, serveEcho, tcpThroughput, type Shell } from './guest-network-measure';
import { startRawTapPair, type RawTapPair } from './raw-tap-pair';

const MIB = Number(process.argv[2] ?? 64);
const RUNS = Number(process.argv[3] ?? 3);
const REQUESTS = 50;
const out = (s: string) => process.stdout.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f1 = (x: number) => x.toFixed(1);

const vmi = (name: string, node: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: 'default' },
  spec: {
    terminationGracePeriodSeconds: 0, nodeSelector: { 'kubernetes.io/hostname': node },
    domain: { memory: { guest: '256Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }], interfaces: [{ name: 'default', masquerade: {} }] } },
    networks: [{ name: 'default', pod: {} }],
    volumes: [{ name: 'root', containerDisk: { image: 'demo' } }],
  },
});

interface Pair { label: string; a: Shell; b: Shell; bIP: string; pingNote: string }

async function oursPair(c: LifecycleCluster, opened: GuestShell[]): Promise<Pair> {
  for (const [name, node] of [['net-a', 'node-1'], ['net-b', 'node-2']]) {
    const r = await callRest(c.admin, 'POST', VMIS('default'), vmi(name, node));
    if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const ipOf = (name: string) => until(`${name} running on the pod network`, async () => {
    const v = (await callRest(c.admin, 'GET', `${VMIS('default')}/${name}`)).body;
    const ip = v?.status?.interfaces?.[0]?.ipAddress as string | undefined;
    return v?.status?.phase === 'Running' && ip?.startsWith('10.244.') && ip;
  }, 300_000);
  const [aIP, bIP] = [await ipOf('net-a'), await ipOf('net-b')];
  if (aIP.split('.')[2] === bIP.split('.')[2]) throw new Error(`both guests on one node (${aIP}, ${bIP})`);
  for (const name of ['net-a', 'net-b']) opened.push(await openGuestShell(c.admin, 'default', name, 300_000));
  return { label: 'ours ', a: opened[0], b: opened[1], bIP, pingNote: 'to B\'s Pod IP: answered by its Pod namespace, ICMP is not forwarded to the guest' };
}

async function ready(p: Pair): Promise<void> {
  await serveEcho(p.a);
  await serveEcho(p.b);
  try {
    await until(`${p.label.trim()}: A reaches B's port 8080`, async () => (await askEcho(p.a, p.bIP)) === 'ok', 120_000);
  } catch (err) {
    const seen = await p.a.run(`busybox nc -w 5 ${p.bIP} 8080 </dev/null 2>&1; ip addr show eth0; ip route; ping -c 2 -W 2 ${p.bIP}`, 30_000).catch((e: unknown) => String(e));
    throw new Error(`${(err as Error).message}; A says:\n${seen}`, { cause: err });
  }
}

async function main(): Promise<void> {
  out(`guest-network bench: ${MIB} MiB per transfer, ${RUNS} runs, ${REQUESTS} requests per loop`);
  process.env.KV_POD_NETWORK = '1';
  const c = await startLifecycleCluster({ nodes: 2 });
  out(`cluster up (${c.cluster.dataDir})`);
  let raw: RawTapPair | undefined;
  const opened: GuestShell[] = [];
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= (async () => {
    for (const s of opened) s.close();
    await raw?.stop();
    await c.stop();
  })());
  // a bench stopped by a signal still stops its cluster and its bare QEMUs
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void stop().finally(() => process.exit(130)));
  try {
    raw = startRawTapPair(dataPaths(c.cluster.dataDir).images);
    const floor: Pair = { label: 'floor', a: raw.shells[0], b: raw.shells[1], bIP: raw.ips[1], pingNote: 'guest to guest' };
    const ours = await oursPair(c, opened);
    out('ours: both guests run on two nodes; consoles open');
    await ready(ours);
    await ready(floor);
    out('both pairs reach each other (TCP 8080)');
    const rates = new Map<Pair, number[]>([[ours, []], [floor, []]]);
    for (let i = 0; i < RUNS; i++) {
      for (const p of [ours, floor]) {
        const r = await tcpThroughput(p.a, p.b, p.bIP, MIB);
        rates.get(p)!.push(r);
        out(`run ${i + 1} ${p.label}: TCP A → B ${f1(r)} MiB/s`);
      }
    }
    const loops = new Map<Pair, { remote: number; local: number; ping: number }>();
    for (const p of [ours, floor]) {
      const remote = await requestLoopMs(p.a, p.bIP, REQUESTS);
      const local = await requestLoopMs(p.a, '127.0.0.1', REQUESTS);
      const ping = await pingAvgMs(p.a, p.bIP, 10);
      loops.set(p, { remote, local, ping });
      out(`${p.label}: TCP request A → B ${remote.toFixed(2)} ms (A → its own loopback ${local.toFixed(2)} ms), ping avg ${ping.toFixed(2)} ms (${p.pingNote})`);
    }
    const [o, fl] = [median(rates.get(ours)!), median(rates.get(floor)!)];
    const [lo, lf] = [loops.get(ours)!, loops.get(floor)!];
    out(`median TCP: ours ${f1(o)} MiB/s, floor ${f1(fl)} MiB/s → ours ${((100 * o) / fl).toFixed(0)} % of the floor (goal ≥ 80 %)`);
    out(`TCP request A → B: ours ${lo.remote.toFixed(1)} ms, floor ${lf.remote.toFixed(1)} ms (${(lo.remote / lf.remote).toFixed(2)}×)`);
  } finally {
    await stop();
  }
}

main().then(() => process.exit(0), (err: unknown) => { process.stderr.write(`${(err as Error).stack ?? String(err)}\n`); process.exit(1); });
