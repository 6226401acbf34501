import { describe, expect, it } from 'vitest';
import { planOwnership, qemuPaths } from './qemu-ownership';

type St = { uid: number; gid: number; mode: number };
const dir = (mode: number, uid = 0): St => ({ uid, gid: 0, mode: 0o40000 | mode });
const file = (mode: number, uid = 0): St => ({ uid, gid: 0, mode: 0o100000 | mode });

/** a host: / and /usr open, /root closed, the data dir /root/.kv closed (kv up makes it 0700) */
function host(extra: Record<string, St> = {}): (p: string) => St | undefined {
  const fs: Record<string, St> = {
    '/': dir(0o755), '/usr': dir(0o755), '/usr/share': dir(0o755), '/usr/share/OVMF': dir(0o755), '/usr/share/OVMF/CODE.fd': file(0o644),
    '/root': dir(0o700), '/root/.kv': dir(0o700), '/root/.kv/nodes': dir(0o755), '/root/.kv/nodes/n1': dir(0o700),
    '/root/.kv/nodes/n1/pods': dir(0o755), '/root/.kv/nodes/n1/pods/u1': dir(0o755),
    '/root/.kv/images': dir(0o755), '/root/.kv/images/cirros': dir(0o755), '/root/.kv/images/cirros/disk.qcow2': file(0o600),
    '/root/.kv/nodes/n1/pods/u1/disk-root.qcow2': file(0o644), '/root/.kv/nodes/n1/pods/u1/efi-vars.fd': file(0o644),
    '/srv': dir(0o700), '/srv/disk.img': file(0o644), '/var': dir(0o755), '/var/lib': dir(0o755), '/var/lib/disk.img': file(0o644),
    ...extra,
  };
  return (p) => fs[p];
}

const POD = '/root/.kv/nodes/n1/pods/u1';

describe('the paths QEMU opens', () => {
  it('reads -blockdev/-object JSON, -kernel and -initrd; a path is read-only only if every use is', () => {
    const args = [
      '-blockdev', JSON.stringify({ driver: 'file', filename: '/usr/share/OVMF/CODE.fd', 'node-name': 'efi-code', 'read-only': true }),
      '-blockdev', JSON.stringify({ driver: 'qcow2', 'node-name': 'drive-root', file: { driver: 'file', filename: `${POD}/disk-root.qcow2` } }),
      '-blockdev', JSON.stringify({ driver: 'raw', 'read-only': true, file: { driver: 'file', filename: '/iso/a.iso' } }),
      '-kernel', '/root/.kv/images/k/vmlinuz', '-initrd', '/root/.kv/images/k/initrd',
      '-object', JSON.stringify({ 'qom-type': 'rng-random', id: 'rng0', filename: '/dev/urandom' }),
      '-chardev', `socket,id=qmp,path=${POD}/qmp.sock,server=on,wait=off`,
    ];
    expect(qemuPaths(args)).toEqual([
      { path: '/usr/share/OVMF/CODE.fd', readOnly: true },
      { path: `${POD}/disk-root.qcow2`, readOnly: false },
      { path: '/iso/a.iso', readOnly: true },
      { path: '/root/.kv/images/k/vmlinuz', readOnly: true },
      { path: '/root/.kv/images/k/initrd', readOnly: true },
      { path: '/dev/urandom', readOnly: false },
    ]);
  });
});

describe('what changes on disk for QEMU\'s user', () => {
  const base = { uid: 107, gid: 107, dataDir: '/root/.kv', owned: [POD], stat: host() };

  it('chowns the VMI\'s writable files and pod dir, opens the data dir\'s dirs for search, a closed base image for reading, and reveals the data dir above /root', () => {
    const plan = planOwnership({ ...base, paths: [
      { path: '/usr/share/OVMF/CODE.fd', readOnly: true },
      { path: '/root/.kv/images/cirros/disk.qcow2', readOnly: true },
      { path: `${POD}/disk-root.qcow2`, readOnly: false },
      { path: `${POD}/efi-vars.fd`, readOnly: false },
    ] });
    expect(plan.blocked).toBeUndefined();
    expect(plan.chown.sort()).toEqual([POD, `${POD}/disk-root.qcow2`, `${POD}/efi-vars.fd`].sort());
    expect(plan.search.sort()).toEqual(['/root/.kv', '/root/.kv/nodes/n1'].sort());
    expect(plan.read).toEqual(['/root/.kv/images/cirros/disk.qcow2']);
    // /root itself keeps 0700 on the host: QEMU's namespace covers it with a tmpfs holding only the data dir
    expect(plan.reveal).toEqual({ cover: '/root', keep: '/root/.kv' });
  });

  it('needs no reveal when the way to the data dir is open (a data dir in /var/lib)', () => {
    const stat = host({ '/var/lib/kv': dir(0o700), '/var/lib/kv/pod': dir(0o755) });
    const plan = planOwnership({ ...base, dataDir: '/var/lib/kv', owned: ['/var/lib/kv/pod'], stat, paths: [] });
    expect(plan).toEqual({ chown: ['/var/lib/kv/pod'], search: ['/var/lib/kv'], read: [], blocked: undefined });
  });

  it('chowns a hostDisk outside the data dir when the way there is open, and is blocked behind a closed dir it may not change', () => {
    expect(planOwnership({ ...base, paths: [{ path: '/var/lib/disk.img', readOnly: false }] }).blocked).toBeUndefined();
    expect(planOwnership({ ...base, paths: [{ path: '/var/lib/disk.img', readOnly: false }] }).chown).toContain('/var/lib/disk.img');
    expect(planOwnership({ ...base, paths: [{ path: '/srv/disk.img', readOnly: false }] }).blocked).toBe('/srv/disk.img');
    // a file under /root but outside the data dir: the reveal would hide it
    const stat = host({ '/root/other.iso': file(0o644) });
    expect(planOwnership({ ...base, stat, paths: [{ path: '/root/other.iso', readOnly: true }] }).blocked).toBe('/root/other.iso');
  });

  it('never chowns a device: /dev/urandom is used as it is, a root-only device (a Block claim) keeps root', () => {
    const stat = host({ '/dev': dir(0o755), '/dev/urandom': { uid: 0, gid: 0, mode: 0o20666 }, '/dev/loop7': { uid: 0, gid: 6, mode: 0o60660 } });
    const rng = planOwnership({ ...base, stat, paths: [{ path: '/dev/urandom', readOnly: false }] });
    expect(rng.chown).toEqual([POD]);
    expect(rng.blocked).toBeUndefined();
    expect(planOwnership({ ...base, stat, paths: [{ path: '/dev/loop7', readOnly: false }] }).blocked).toBe('/dev/loop7');
  });

  it('never opens a read-only file outside the data dir: a closed one blocks', () => {
    const stat = host({ '/var/lib/secret.iso': file(0o600) });
    expect(planOwnership({ ...base, stat, paths: [{ path: '/var/lib/secret.iso', readOnly: true }] }).blocked).toBe('/var/lib/secret.iso');
  });
});
