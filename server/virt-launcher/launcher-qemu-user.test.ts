import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestLauncher, tinyVMI, uidsOf, type TestLauncher } from './test-launcher';

/** Runs `cat path` as QEMU would: in its mount namespace, as its uid/gid. */
function catAsQemu(pid: number, path: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('nsenter', ['--target', String(pid), '--mount', '--', 'setpriv', '--reuid', '107', '--regid', '107', '--clear-groups', '--', 'cat', path], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('QEMU as uid 107 (real launcher, real QEMU)', () => {
  let l: TestLauncher | undefined;
  afterEach(async () => { await l?.stop(); l = undefined; });

  it('runs as 107 with the pod dir its own, cannot read the cluster\'s tokens, and gets a hot-plugged disk chowned to it', async () => {
    l = await startTestLauncher();
    const apiserver = join(l.dataDir, 'apiserver');
    mkdirSync(apiserver, { recursive: true, mode: 0o700 });
    const tokens = join(apiserver, 'tokens.json');
    writeFileSync(tokens, '{"admin":"secret-admin-token"}', { mode: 0o600 });
    chmodSync(l.dataDir, 0o700); // as `kv up` makes it
    const s = await l.client.request('sync', { vmi: tinyVMI() }, { timeoutMs: 20_000 });
    expect(s.qemuUser).toEqual({ uid: 107 });
    expect(uidsOf(s.qemuPid)).toEqual([107, 107, 107, 107]);
    const pod = statSync(l.podDir);
    expect([pod.uid, pod.gid]).toEqual([107, 107]);

    // in QEMU's own view, as its user: the tokens are neither readable nor there
    expect(catAsQemu(s.qemuPid!, join(l.podDir, 'qemu.log')).status).toBe(0); // the way in works: its own log is readable
    const read = catAsQemu(s.qemuPid!, tokens);
    expect(read.stderr).toMatch(/Permission denied|No such file/);
    expect(read.status).not.toBe(0);
    expect(read.stdout).not.toContain('secret-admin-token');
    // on the host, the secret files keep their root-only modes (the data dir got a search bit only)
    const t = statSync(tokens);
    expect([t.uid, t.mode & 0o777, statSync(apiserver).mode & 0o777]).toEqual([0, 0o600, 0o700]);
    expect(statSync(l.dataDir).mode & 0o777).toBe(0o701);

    // a hot-plugged claim's disk, created by the launcher as root, is handed to QEMU's user before it opens it
    const claim = join(l.dataDir, 'pv', 'hot');
    mkdirSync(claim, { recursive: true });
    await expect(l.client.request('hotplug', { disks: [{ name: 'hot', path: claim, block: false, capacityBytes: 1 << 20 }] })).resolves.toEqual([{ name: 'hot', target: 'sda' }]);
    const disk = statSync(join(claim, 'disk.img'));
    expect([disk.uid, disk.gid]).toEqual([107, 107]);
  });

  it('KV_QEMU_UID=root keeps QEMU as root and says so', async () => {
    l = await startTestLauncher({ env: { KV_QEMU_UID: 'root' } });
    const s = await l.client.request('sync', { vmi: tinyVMI() }, { timeoutMs: 20_000 });
    expect(s.qemuUser).toMatchObject({ uid: 0, reason: 'QEMUUserDisabled' });
    expect(uidsOf(s.qemuPid)).toEqual([0, 0, 0, 0]);
  });
});

/** the tap a process holds open (the tun driver's fdinfo says `iff: NAME`) */
function tapsOf(pid: number): string[] {
  const dir = `/proc/${pid}/fdinfo`;
  return readdirSync(dir).flatMap((fd) => { try { return [...readFileSync(join(dir, fd), 'utf8').matchAll(/^iff:\s+(\S+)$/gm)].map((m) => m[1]); } catch { return []; } });
}

describe('QEMU as uid 107 on the pod network\'s tap (real launcher in a Pod-like netns, real QEMU)', () => {
  let l: TestLauncher | undefined;
  let ns: string | undefined;
  afterEach(async () => {
    await l?.stop(); l = undefined;
    if (ns) for (const n of [ns, `${ns}-n`]) spawnSync('ip', ['netns', 'del', n]);
    ns = undefined;
  });

  /** a Pod-like netns whose eth0 (10.252.0.5/24) is a veth to a "node" namespace of its own (nothing on the host's network) */
  function podNetns(): (...args: string[]) => string {
    ns = `kvq-${randomBytes(3).toString('hex')}`;
    const inNs = (...args: string[]) => execFileSync('ip', ['netns', 'exec', ns!, ...args], { encoding: 'utf8' });
    for (const n of [ns, `${ns}-n`]) execFileSync('ip', ['netns', 'add', n]);
    execFileSync('ip', ['link', 'add', 'kvq0', 'netns', `${ns}-n`, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns]);
    inNs('ip', 'addr', 'add', '10.252.0.5/24', 'dev', 'eth0');
    inNs('ip', 'link', 'set', 'eth0', 'up');
    return inNs;
  }

  it('attaches to a tap owned by 107 through the tun node its own namespace made, the host\'s /dev/net/tun untouched', async () => {
    const hostTun = statSync('/dev/net/tun');
    const inNs = podNetns();
    l = await startTestLauncher({ netns: ns, env: { POD_IP: '10.252.0.5' } });
    // the implicit default interface: masquerade on tap0
    const s = await l.client.request('sync', { vmi: tinyVMI({ domain: { memory: { guest: '64Mi' }, devices: {} } }) }, { timeoutMs: 20_000 });
    expect(s.qemuUser).toEqual({ uid: 107 });
    expect(uidsOf(s.qemuPid)).toEqual([107, 107, 107, 107]);
    expect([inNs('cat', '/sys/class/net/tap0/owner').trim(), inNs('cat', '/sys/class/net/tap0/group').trim()]).toEqual(['107', '107']);
    expect(tapsOf(s.qemuPid!)).toEqual(['tap0']);
    const now = statSync('/dev/net/tun');
    expect([now.uid, now.mode]).toEqual([hostTun.uid, hostTun.mode]);
  });

  it('where QEMU\'s namespace cannot make a tun node (no unshare), keeps root with TunDeviceNotAccessible and still starts the guest on its tap', async () => {
    const inNs = podNetns();
    // an `unshare` that is refused, first on the launcher's PATH
    const bin = mkdtempSync(join(tmpdir(), 'kvq-bin-'));
    writeFileSync(join(bin, 'unshare'), '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n', { mode: 0o755 });
    try {
      l = await startTestLauncher({ netns: ns, env: { POD_IP: '10.252.0.5', PATH: `${bin}:${process.env.PATH}` } });
      const s = await l.client.request('sync', { vmi: tinyVMI({ domain: { memory: { guest: '64Mi' }, devices: {} } }) }, { timeoutMs: 20_000 });
      expect(s.qemuUser).toMatchObject({ uid: 0, reason: 'TunDeviceNotAccessible', message: expect.stringContaining('/dev/net/tun is not readable and writable by uid 107') });
      expect(uidsOf(s.qemuPid)).toEqual([0, 0, 0, 0]);
      expect(inNs('cat', '/sys/class/net/tap0/owner').trim()).toBe('-1');
      expect(tapsOf(s.qemuPid!)).toEqual(['tap0']);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
