import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { NET_NODES_SCRIPT, planNetDevices } from './qemu-net-devices';
import { withHiddenPaths } from './qemu-secrets';
import { ROOT_REASONS, type QemuUser } from './qemu-user';

const CHR = 0o020000;
const dev = (mode: number, uid = 0, gid = 0) => ({ uid, gid, mode: CHR | mode });
const drop: QemuUser = { drop: true, uid: 107, gid: 107, groups: [] };
const never = () => { throw new Error('canMakeNodes asked when no node is needed'); };

describe('the pod network\'s devices for QEMU\'s user', () => {
  it('a usable /dev/net/tun (0666, the usual udev rule): the tap is 107\'s, no node is made, vhost where 107 may open it', () => {
    expect(planNetDevices({ user: drop, tun: dev(0o666), vhost: dev(0o666), canMakeNodes: never }))
      .toEqual({ user: drop, tapOwner: { uid: 107, gid: 107 }, vhost: true, nodes: { tun: false, vhost: false } });
    expect(planNetDevices({ user: drop, tun: dev(0o666), canMakeNodes: never }))
      .toEqual({ user: drop, tapOwner: { uid: 107, gid: 107 }, vhost: false, nodes: { tun: false, vhost: false } });
  });

  it('a root-only /dev/net/tun (this host: 0600): QEMU\'s namespace makes its own node and 107 still gets the tap', () => {
    expect(planNetDevices({ user: drop, tun: dev(0o600), canMakeNodes: () => true }))
      .toEqual({ user: drop, tapOwner: { uid: 107, gid: 107 }, vhost: false, nodes: { tun: true, vhost: false } });
  });

  it('no way to make the node keeps QEMU root with TunDeviceNotAccessible (the VMI still starts), the tap unowned', () => {
    const p = planNetDevices({ user: drop, tun: dev(0o600), vhost: dev(0o600), canMakeNodes: () => false });
    expect(p.user).toMatchObject({ drop: false, uid: 0, reason: ROOT_REASONS.tun, message: expect.stringContaining('/dev/net/tun is not readable and writable by uid 107') });
    expect(p.tapOwner).toBeUndefined();
    expect(p.nodes).toEqual({ tun: false, vhost: false });
    expect(p.vhost).toBe(true); // root opens vhost-net
  });

  it('a root-only /dev/vhost-net: made in the namespace too (with tun, whose host node the tmpfs covers), else vhost off', () => {
    expect(planNetDevices({ user: drop, tun: dev(0o666), vhost: dev(0o600), canMakeNodes: () => true }))
      .toMatchObject({ user: drop, vhost: true, nodes: { tun: true, vhost: true } });
    expect(planNetDevices({ user: drop, tun: dev(0o666), vhost: dev(0o600), canMakeNodes: () => false }))
      .toMatchObject({ user: drop, tapOwner: { uid: 107, gid: 107 }, vhost: false, nodes: { tun: false, vhost: false } });
  });

  it('group access counts only through a group QEMU\'s user holds', () => {
    const kvm = 36;
    expect(planNetDevices({ user: { ...drop, groups: [kvm] }, tun: dev(0o666), vhost: dev(0o660, 0, kvm), canMakeNodes: never }))
      .toMatchObject({ vhost: true, nodes: { tun: false, vhost: false } });
    expect(planNetDevices({ user: drop, tun: dev(0o666), vhost: dev(0o660, 0, kvm), canMakeNodes: () => false })).toMatchObject({ vhost: false });
  });

  it('QEMU as root: the tap has no owner, vhost wherever the device is, no nodes', () => {
    const root: QemuUser = { drop: false, uid: 0, reason: ROOT_REASONS.postcopy, message: 'm' };
    expect(planNetDevices({ user: root, tun: dev(0o600), vhost: dev(0o600), canMakeNodes: never }))
      .toEqual({ user: root, vhost: true, nodes: { tun: false, vhost: false } });
    expect(planNetDevices({ user: root, tun: dev(0o600), canMakeNodes: never }).vhost).toBe(false);
  });
});

describe('QEMU\'s namespace makes the nodes', () => {
  it('passes the nodes to the script only when asked (no namespace at all otherwise)', () => {
    expect(withHiddenPaths([], ['qemu'])).toEqual(['qemu']);
    const argv = withHiddenPaths([], ['qemu'], [], undefined, { tun: true, vhost: false });
    expect(argv.slice(0, 5)).toEqual(['unshare', '--mount', '--propagation', 'private', '--']);
    expect(argv.slice(-3)).toEqual(['1', '0', 'qemu']);
  });

  const asRoot = process.getuid?.() === 0 && spawnSync('unshare', ['--mount', '--', 'true']).status === 0;
  it.runIf(asRoot)('gives uid 107 a tun node it can open in its own view while the host\'s stays 0600 root', () => {
    const script = `${NET_NODES_SCRIPT}\nexec setpriv --reuid 107 --regid 107 --clear-groups -- sh -c 'exec 3<>/dev/net/tun && echo opened'`;
    const r = spawnSync('unshare', ['--mount', '--propagation', 'private', '--', 'sh', '-c', script, 'kv-test', '1', '0'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('opened');
    const host = spawnSync('setpriv', ['--reuid', '107', '--regid', '107', '--clear-groups', '--', 'sh', '-c', 'exec 3<>/dev/net/tun'], { encoding: 'utf8' });
    expect(host.status).not.toBe(0);
    expect(host.stderr).toMatch(/Permission denied/);
  });
});
