/**
 * The floor for guest-to-guest networking: two bare QEMUs of the demo guest (the demo VMI's QEMU
 * arguments, bench/raw-qemu-floor.ts, with the NIC's netdev a tap as our launcher gives it) whose
 * taps sit on one plain Linux bridge, in a network namespace of their own — no nftables table and no
 * br_netfilter there, whatever the host runs. A root shell on each serial console; the guests get
 * 10.99.0.1 and 10.99.0.2 by hand (no DHCP). Each QEMU sits in a cgroup as deep as a launcher's
 * (`kubevirt-ts/<node>/pod<uid>`, one "node" each, no limits), so on a busy host both sides get
 * the same CPU share: on cgroup v1 every Pod of every embedded cluster shares the one `kubevirt-ts`
 * group's weight, while a process left in the root group competes on its own (a first run without
 * this gave the bare QEMUs 2-3× the CPU our guests got at load 20).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveImage } from '../server/images/image-store';
import { detectPodCgroups } from '../server/node/cgroups/detect-cgroups';
import type { PodCgroups } from '../server/node/cgroups/pod-cgroups';
import { qemuArgs } from './raw-qemu-floor';
import type { Shell } from './guest-network-measure';

export interface RawTapPair { shells: [Shell, Shell]; ips: [string, string]; stop(): Promise<void> }

interface SerialGuest { shell: Shell; qemu: ChildProcess }

/** a QEMU with its serial console on stdio, driven as a shell (login root, no password) */
function serialGuest(args: string[], netns: string): SerialGuest {
  const qemu = spawn('ip', ['netns', 'exec', netns, 'qemu-system-x86_64', ...args], { stdio: ['pipe', 'pipe', 'ignore'] });
  let buf = '';
  const waiters: { test: (t: string) => boolean; resolve: (t: string) => void }[] = [];
  qemu.stdout!.on('data', (d: Buffer) => {
    buf += d.toString('latin1');
    for (const w of [...waiters]) if (w.test(buf)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(buf); }
  });
  const waitFor = (what: string, test: (t: string) => boolean, ms: number) => new Promise<string>((resolve, reject) => {
    if (test(buf)) return resolve(buf);
    const timer = setTimeout(() => reject(new Error(`raw guest: no ${what} in ${ms} ms (last: ${JSON.stringify(buf.slice(-200))})`)), ms);
    waiters.push({ test, resolve: (t) => { clearTimeout(timer); resolve(t); } });
  });
  // the demo guest's prompt ends with a cursor position query (ESC [6n)
  const prompt = (t: string) => t.endsWith('# ') || t.endsWith('# \u001b[6n');
  const login = async () => {
    const poke = setInterval(() => qemu.stdin!.write('\r'), 1000);
    try { await waitFor('login prompt', (t) => /login: $/.test(t) || prompt(t), 300_000); } finally { clearInterval(poke); }
    if (!prompt(buf)) { qemu.stdin!.write('root\r'); await waitFor('shell prompt', prompt, 30_000); }
  };
  let ready: Promise<void> | undefined;
  let n = 0;
  return {
    qemu,
    shell: {
      async run(cmd, ms = 30_000) {
        ready ??= login();
        await ready;
        const tag = `RAW${++n}X`;
        buf = '';
        qemu.stdin!.write(`echo ${tag}''B; ${cmd}; echo ${tag}''E\r`);
        const text = await waitFor(`end of "${cmd}"`, (t) => t.includes(`${tag}E`), ms);
        return text.slice(text.lastIndexOf(`${tag}B`) + tag.length + 1, text.lastIndexOf(`${tag}E`)).replace(/\r/g, '').trim();
      },
    },
  };
}

/** the guest's udhcpc retries in the background and flushes eth0 on each try: stop it, then the address */
function configured(shell: Shell, address: string): Shell {
  let done: Promise<unknown> | undefined;
  return {
    run(cmd, ms) {
      done ??= shell.run(`killall udhcpc; ip addr flush dev eth0; ip addr add ${address}/24 dev eth0; ip link set eth0 up`, 300_000);
      return done.then(() => shell.run(cmd, ms));
    },
  };
}

/** starts both guests (they boot while the caller does other work); `stop` kills them and removes the namespace */
export function startRawTapPair(imagesDir: string): RawTapPair {
  const img = resolveImage(imagesDir, 'demo');
  if (!img?.kernel || !img.initrd || !img.disk) throw new Error('demo image not in the store');
  const dir = mkdtempSync(join(tmpdir(), 'kv-netfloor-'));
  const netns = `kvraw-${process.pid}`;
  const ip = (...a: string[]) => execFileSync('ip', ['-n', netns, ...a]);
  execFileSync('ip', ['netns', 'add', netns]);
  const guests: SerialGuest[] = [];
  const cgroups: PodCgroups[] = [];
  const stop = async () => {
    // a cgroup can go only once its processes have exited
    await Promise.all(guests.map((g) => new Promise((r) => { if (g.qemu.exitCode !== null || g.qemu.signalCode !== null) r(undefined); else { g.qemu.once('exit', r); g.qemu.kill('SIGKILL'); } })));
    for (const cg of cgroups) { cg.remove('netfloor'); cg.removeNode(); }
    try { execFileSync('ip', ['netns', 'del', netns]); } catch { /* gone */ }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    ip('link', 'set', 'lo', 'up');
    ip('link', 'add', 'br0', 'type', 'bridge');
    ip('link', 'set', 'br0', 'up');
    for (const i of [1, 2]) {
      // as the launcher's binding makes its tap (binding-plan.ts): `ip tuntap add`, bridge port, MTU 1500
      ip('tuntap', 'add', 'dev', `tap${i}`, 'mode', 'tap');
      ip('link', 'set', `tap${i}`, 'mtu', '1500', 'master', 'br0', 'up');
      const overlay = join(dir, `${i}.qcow2`);
      execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', '-b', img.disk, '-F', img.format, overlay]);
      const netdev = { type: 'tap', ifname: `tap${i}`, script: 'no', downscript: 'no', vhost: existsSync('/dev/vhost-net') };
      const g = serialGuest(qemuArgs({ kernel: img.kernel, initrd: img.initrd, cmdline: img.cmdline }, overlay, '256Mi', i, { netdev, mac: `02:00:00:00:99:0${i}` }), netns);
      guests.push(g);
      const cg = detectPodCgroups(`netfloor-${i}`, `${dir}/${i}`);
      if (cg && g.qemu.pid) {
        cgroups.push(cg);
        cg.ensure('netfloor', {});
        cg.addProcess('netfloor', g.qemu.pid);
      }
    }
  } catch (err) {
    void stop();
    throw err;
  }
  const ips: [string, string] = ['10.99.0.1', '10.99.0.2'];
  const shells = guests.map((g, i) => configured(g.shell, ips[i])) as [Shell, Shell];
  return { shells, ips, stop };
}
