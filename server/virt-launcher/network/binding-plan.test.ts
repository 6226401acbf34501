import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseResolvConf, planBinding, type BindingInput } from './binding-plan';
import { parseConnectedPrefix, parseDefaultGateway } from './apply-binding';

const base: BindingInput = {
  kind: 'masquerade', mac: '02:aa:bb:cc:dd:ee', ports: [], pod: { podIP: '10.244.1.7', prefix: 24, gateway: '10.244.1.1', mtu: 1450 },
  dns: ['10.96.0.10'], search: ['default.svc.cluster.local'], hostname: 'vm', launcherPorts: [49152, 49153],
};

const nftAccepts = (script: string) => {
  try {
    execFileSync('nft', ['-c', '-f', '-'], { input: script, stdio: ['pipe', 'pipe', 'pipe'] });
    return 'ok';
  } catch (err) {
    return String((err as { stderr?: Buffer }).stderr ?? err);
  }
};
const canCheckNft = (() => { try { execFileSync('nft', ['--version']); return process.getuid?.() === 0; } catch { return false; } })();

describe('masquerade plan', () => {
  it('leases 10.0.2.2 behind gateway 10.0.2.1 with the Pod DNS and MTU', () => {
    expect(planBinding(base).lease).toMatchObject({ ip: '10.0.2.2', subnetMask: '255.255.255.0', router: '10.0.2.1', serverId: '10.0.2.1', dns: ['10.96.0.10'], mtu: 1450 });
  });

  it('builds bridge k6t-eth0 10.0.2.1/24 with tap0, eth0 untouched', () => {
    const lines = planBinding(base).ipBatch;
    expect(lines).toContain('addr add 10.0.2.1/24 dev k6t-eth0');
    expect(lines).toContain('link set tap0 mtu 1450 master k6t-eth0 up');
    expect(lines.join('\n')).not.toMatch(/dev eth0|set eth0/);
  });

  it('forwards every port but the launcher\'s own when none are declared', () => {
    const nft = planBinding(base).nft;
    expect(nft).toContain('iifname "eth0" ip daddr 10.244.1.7 tcp dport != { 49152, 49153 } dnat to 10.0.2.2');
    expect(nft).toContain('iifname "eth0" ip daddr 10.244.1.7 meta l4proto udp dnat to 10.0.2.2');
    expect(nft).toContain('oifname "eth0" ip saddr 10.0.2.0/24 masquerade');
  });

  it('forwards only the declared ports, per protocol', () => {
    const nft = planBinding({ ...base, ports: [{ protocol: 'TCP', port: 80 }, { protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 22 }] }).nft;
    expect(nft).toContain('tcp dport { 22, 80 } dnat to 10.0.2.2');
    expect(nft).toContain('udp dport { 53 } dnat to 10.0.2.2');
    expect(nft).not.toContain('49152');
  });

  it('lets the guest reach the Pod namespace for DHCP only', () => {
    const nft = planBinding(base).nft;
    expect(nft.indexOf('iifname "k6t-eth0" udp dport 67 accept')).toBeLessThan(nft.indexOf('iifname "k6t-eth0" drop'));
    // replies to the launcher's own connections (port-forward) come back; the guest opens none
    expect(nft.indexOf('iifname "k6t-eth0" ct state established,related accept')).toBeLessThan(nft.indexOf('iifname "k6t-eth0" drop'));
  });

  it.skipIf(!canCheckNft).each([
    ['all ports', base],
    ['declared ports', { ...base, ports: [{ protocol: 'TCP' as const, port: 80 }, { protocol: 'UDP' as const, port: 5353 }] }],
    ['bridge', { ...base, kind: 'bridge' as const }],
  ])('nft accepts the %s ruleset', (_what, input) => {
    expect(nftAccepts(planBinding(input).nft)).toBe('ok');
  });
});

describe('bridge plan', () => {
  const plan = planBinding({ ...base, kind: 'bridge' });
  it('moves the Pod IP from eth0 to the guest by DHCP, with the Pod gateway', () => {
    expect(plan.ipBatch).toContain('addr del 10.244.1.7/24 dev eth0');
    expect(plan.ipBatch).toContain('link set eth0 master k6t-eth0');
    // the node bridge hairpins broadcasts back: k6t-eth0 must never learn the guest's MAC on eth0
    expect(plan.ipBatch.indexOf('link set dev eth0 type bridge_slave learning off')).toBeGreaterThan(plan.ipBatch.indexOf('link set eth0 master k6t-eth0'));
    expect(plan.lease).toMatchObject({ ip: '10.244.1.7', subnetMask: '255.255.255.0', router: '10.244.1.1', serverId: '169.254.75.10' });
  });
  it('does no NAT', () => expect(plan.nft).not.toContain('dnat'));
});

describe('the tap\'s owner', () => {
  it('is QEMU\'s user when it drops root, for both bindings, and nobody when QEMU keeps root', () => {
    for (const kind of ['masquerade', 'bridge'] as const) {
      expect(planBinding({ ...base, kind, tapOwner: { uid: 107, gid: 107 } }).ipBatch).toContain('tuntap add dev tap0 mode tap user 107 group 107');
      expect(planBinding({ ...base, kind }).ipBatch).toContain('tuntap add dev tap0 mode tap');
    }
  });
});

describe('Pod files', () => {
  it('reads nameservers and the search list, skipping loopback resolvers', () => {
    expect(parseResolvConf('# pod\nsearch default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\nnameserver 127.0.0.53\noptions ndots:5\n'))
      .toEqual({ nameservers: ['10.96.0.10'], search: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'] });
  });
  it('finds the default gateway of eth0 in /proc/net/route', () => {
    const route = 'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\nkv\t00F4000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\neth0\t00000000\t01F4000A\t0003\t0\t0\t0\t00000000\n';
    expect(parseDefaultGateway(route, 'eth0')).toBe('10.0.244.1');
    expect(parseDefaultGateway(route, 'eth1')).toBeUndefined();
  });
  it('finds the prefix of the Pod address from eth0\'s connected route, none when eth0 gave its address up', () => {
    const route = 'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\tMTU\tWindow\tIRTT\n'
      + 'eth0\t00000000\t0101F40A\t0003\t0\t0\t0\t00000000\t0\t0\t0\n'
      + 'k6t-eth0\t0002000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n'
      + 'eth0\t0001F40A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n';
    expect(parseConnectedPrefix(route, 'eth0', '10.244.1.7')).toBe(24);
    expect(parseConnectedPrefix(route, 'eth0', '10.244.2.7')).toBeUndefined();
    expect(parseConnectedPrefix(route, 'k6t-eth0', '10.0.2.1')).toBe(24);
    const bridged = route.split('\n').filter((l) => !l.startsWith('eth0\t0001')).join('\n');
    expect(parseConnectedPrefix(bridged, 'eth0', '10.244.1.7')).toBeUndefined();
    expect(parseConnectedPrefix('Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\neth0\t0000F40A\t00000000\t0001\t0\t0\t0\t0000FFFF\n', 'eth0', '10.244.9.9')).toBe(16);
  });
});
