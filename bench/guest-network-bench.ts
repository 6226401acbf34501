/**
 * Guest-to-guest networking against its floor (issue 12): two demo guests on two nodes of a `kv up`
 * cluster with the pod network — masquerade binding, the path a user gets (guest → tap → k6t-eth0
 * → NAT → veth → node bridge → routes → the other node's bridge → veth → DNAT → tap → guest) —
 * against two bare QEMUs of the same guest whose taps sit on one plain Linux bridge. Prints TCP
 * throughput (`dd | nc`, MiB/s, median of runs), ICMP round trip (`ping`, avg ms) and ours as a
 * share of the floor (goal ≥ 80 % throughput). Needs root and the pod network.
 * Usage: KV_POD_NETWORK=1 node --import tsx bench/guest-network-bench.ts [MiB=64] [runs=3]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openGuestShell, type GuestShell } from '../e2e/support/guest-shell';
import { startLifecycleCluster } from '../e2e/support/lifecycle-cluster';
import { callRest, until } from '../e2e/support/rest';
import { resolveImage } from '../server/images/image-store';
import { dataPaths } from '../server/data-dir';

const MIB = Number(process.argv[2] ?? 64);
const RUNS = Number(process.argv[3] ?? 3);
const out = (s: string) => process.stdout.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** what a shell needs: run a command, read what it printed */
type Shell = Pick<GuestShell, 'run'>;

/** `dd | nc` from a to b's listener: MiB/s from dd's own clock (the console round trip is not counted) */
async function throughput(a: Shell, b: Shell, bIP: string): Promise<number> {
  await b.run('(busybox nc -l -p 5001 > /dev/null &) ; sleep 1');
  const text = await a.run(`dd if=/dev/zero bs=65536 count=${MIB * 16} 2>/tmp/dd.txt | busybox nc -w 5 ${bIP} 5001; tail -n 1 /tmp/dd.txt`, 300_000);
  const m = /copied, ([\d.]+) seconds/.exec(text);
  if (!m) throw new Error(`dd said: ${text}`);
  return MIB / Number(m[1]);
}

async function rtt(a: Shell, bIP: string): Promise<number> {
  const text = await a.run(`ping -c 10 -i 0.2 ${bIP} | tail -n 1`, 60_000);
  const m = /= [\d.]+\/([\d.]+)\//.exec(text);
  if (!m) throw new Error(`ping said: ${text}`);
  return Number(m[1]);
}

async function measure(label: string, a: Shell, b: Shell, bIP: string): Promise<{ mibps: number; ms: number }> {
  const rates: number[] = [];
  for (let i = 0; i < RUNS; i++) rates.push(await throughput(a, b, bIP));
  const ms = await rtt(a, bIP);
  out(`${label}: TCP ${median(rates).toFixed(1)} MiB/s (runs ${rates.map((r) => r.toFixed(1)).join(', ')}), ping avg ${ms.toFixed(2)} ms`);
  return { mibps: median(rates), ms };
}

const vmi = (name: string, node: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: 'default' },
  spec: {
    terminationGracePeriodSeconds: 0, nodeSelector: { 'kubernetes.io/hostname': node },
    domain: { memory: { guest: '256Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }], interfaces: [{ name: 'default', masquerade: {} }] } },
    networks: [{ name: 'default', pod: {} }],
    volumes: [{ name: 'root', containerDisk: { image: 'demo' } }],
  },
});

interface Figures { mibps: number; ms: number }

/** ours on the cluster, then the floor while the cluster still holds the demo image (its data dir goes with it) */
async function oursThenFloor(): Promise<{ ours: Figures; floor: Figures }> {
  process.env.KV_POD_NETWORK = '1';
  const c = await startLifecycleCluster({ nodes: 2 });
  try {
    for (const [name, node] of [['net-a', 'node-1'], ['net-b', 'node-2']]) {
      const r = await callRest(c.admin, 'POST', '/apis/kubevirt.io/v1/namespaces/default/virtualmachineinstances', vmi(name, node));
      if (r.status !== 201) throw new Error(`create ${name}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    const ipOf = (name: string) => until(`${name} on the pod network`, async () => {
      const v = (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/default/virtualmachineinstances/${name}`)).body;
      const ip = v?.status?.interfaces?.[0]?.ipAddress as string | undefined;
      return v?.status?.phase === 'Running' && ip?.startsWith('10.244.') && ip;
    }, 180_000);
    const bIP = await ipOf('net-b');
    await ipOf('net-a');
    const [a, b] = [await openGuestShell(c.admin, 'default', 'net-a'), await openGuestShell(c.admin, 'default', 'net-b')];
    let ourFigures: Figures;
    try {
      await until('net-a reaches net-b', async () => (await a.run(`ping -c 1 -W 2 ${bIP} >/dev/null && echo ok`)) === 'ok', 60_000);
      ourFigures = await measure('kv (masquerade, pod network, two nodes)', a, b, bIP);
    } finally {
      a.close();
      b.close();
    }
    for (const name of ['net-a', 'net-b']) await callRest(c.admin, 'DELETE', `/apis/kubevirt.io/v1/namespaces/default/virtualmachineinstances/${name}`);
    return { ours: ourFigures, floor: await floor(dataPaths(c.cluster.dataDir).images) };
  } finally {
    await c.stop();
  }
}

/** a bare QEMU of the demo guest with its NIC on `tap`; a shell on its serial console */
function rawGuest(img: { kernel: string; initrd: string; cmdline?: string; disk?: string; format: string }, dir: string, i: number, tap: string): { shell: Shell; qemu: ChildProcess } {
  const overlay = join(dir, `raw-${i}.qcow2`);
  if (img.disk) execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', '-F', img.format, '-b', img.disk, overlay]);
  const args = [
    '-no-user-config', '-nodefaults', '-machine', 'q35', '-accel', 'tcg,thread=multi', '-cpu', 'max', '-smp', '1', '-m', '256M',
    '-kernel', img.kernel, '-initrd', img.initrd, '-append', img.cmdline ?? 'console=ttyS0', '-display', 'none', '-serial', 'stdio',
    ...(img.disk ? ['-blockdev', JSON.stringify({ 'node-name': 'root', driver: 'qcow2', file: { driver: 'file', filename: overlay } }), '-device', 'virtio-blk-pci,drive=root'] : []),
    '-netdev', `tap,id=n0,ifname=${tap},script=no,downscript=no`, '-device', `virtio-net-pci,netdev=n0,mac=02:00:00:00:99:0${i}`,
  ];
  const qemu = spawn('qemu-system-x86_64', args, { stdio: ['pipe', 'pipe', 'ignore'] });
  let buf = '';
  const waiters: { test: (t: string) => boolean; resolve: (t: string) => void }[] = [];
  qemu.stdout!.on('data', (d: Buffer) => {
    buf += d.toString('latin1');
    for (const w of [...waiters]) if (w.test(buf)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(buf); }
  });
  const waitFor = (test: (t: string) => boolean, ms: number) => new Promise<string>((resolve, reject) => {
    if (test(buf)) return resolve(buf);
    const timer = setTimeout(() => reject(new Error('raw guest: timed out')), ms);
    waiters.push({ test, resolve: (t) => { clearTimeout(timer); resolve(t); } });
  });
  let n = 0;
  let ready: Promise<unknown> | undefined;
  const login = async () => {
    const poke = setInterval(() => qemu.stdin!.write('\r'), 1000);
    // the demo guest's prompt ends with a cursor position query (ESC [6n)
    const prompt = (t: string) => t.endsWith('# ') || t.endsWith('# \u001b[6n');
    try { await waitFor((t) => /login: $/.test(t) || prompt(t), 180_000); } finally { clearInterval(poke); }
    if (!prompt(buf)) { qemu.stdin!.write('root\r'); await waitFor(prompt, 20_000); }
  };
  return {
    qemu,
    shell: {
      async run(cmd, ms = 30_000) {
        ready ??= login();
        await ready;
        const tag = `RAW${++n}X`;
        buf = '';
        qemu.stdin!.write(`echo ${tag}''B; ${cmd}; echo ${tag}''E\r`);
        const text = await waitFor((t) => t.includes(`${tag}E`), ms);
        return text.slice(text.lastIndexOf(`${tag}B`) + tag.length + 1, text.lastIndexOf(`${tag}E`)).replace(/\r/g, '').trim();
      },
    },
  };
}

async function floor(imagesDir: string): Promise<Figures> {
  const entry = resolveImage(imagesDir, 'demo');
  if (!entry?.kernel || !entry.initrd) throw new Error('demo image not in the store');
  const img = { kernel: entry.kernel, initrd: entry.initrd, cmdline: entry.cmdline, disk: entry.disk, format: entry.format };
  const dir = mkdtempSync(join(tmpdir(), 'kv-netbench-'));
  const ip = (...a: string[]) => execFileSync('ip', a);
  ip('link', 'add', 'kvraw-br', 'type', 'bridge');
  ip('link', 'set', 'kvraw-br', 'up');
  const guests: ChildProcess[] = [];
  try {
    const shells: Shell[] = [];
    for (const i of [1, 2]) {
      ip('tuntap', 'add', 'dev', `kvraw-t${i}`, 'mode', 'tap');
      ip('link', 'set', `kvraw-t${i}`, 'master', 'kvraw-br', 'up');
      const g = rawGuest(img, dir, i, `kvraw-t${i}`);
      guests.push(g.qemu);
      shells.push(g.shell);
    }
    for (const [i, s] of shells.entries()) await s.run(`ip addr add 10.99.0.${i + 1}/24 dev eth0; ip link set eth0 up`, 200_000);
    await until('raw guests reach each other', async () => (await shells[0].run('ping -c 1 -W 2 10.99.0.2 >/dev/null && echo ok')) === 'ok', 60_000);
    return await measure('bare QEMU pair (taps on one bridge)', shells[0], shells[1], '10.99.0.2');
  } finally {
    for (const q of guests) q.kill('SIGKILL');
    for (const l of ['kvraw-t1', 'kvraw-t2', 'kvraw-br']) { try { ip('link', 'del', l); } catch { /* gone */ } }
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  out(`guest-network bench: ${MIB} MiB per transfer, ${RUNS} runs`);
  const { ours, floor: raw } = await oursThenFloor();
  out(`ours / floor: throughput ${((100 * ours.mibps) / raw.mibps).toFixed(0)} % (goal ≥ 80 %), round trip ${(ours.ms / raw.ms).toFixed(2)}×`);
}

main().then(() => process.exit(0), (err: unknown) => { process.stderr.write(`${(err as Error).stack ?? String(err)}\n`); process.exit(1); });
