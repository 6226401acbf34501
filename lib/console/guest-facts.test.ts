import { describe, expect, it } from 'vitest';
import { guestFacts } from './guest-facts';

describe("the VM page's guest facts", () => {
  it('lists OS, kernel, hostname, time zone, addresses, users and filesystems with their use', () => {
    const f = guestFacts(
      { guestAgentVersion: '7.2.19', hostname: 'demo', timezone: 'UTC, 0', os: { prettyName: 'kubevirt-ts demo', kernelRelease: '6.1.0-56-cloud-amd64', machine: 'x86_64' },
        interfaces: [{ interfaceName: 'lo', ipAddresses: ['127.0.0.1'] }, { interfaceName: 'eth0', ipAddresses: ['10.0.2.2', 'fe80::1'] }, { interfaceName: 'eth1', ipAddresses: [] }] },
      { items: [{ userName: 'root', loginTime: 1_764_000_000 }] },
      { items: [{ mountPoint: '/mnt/vda', fileSystemType: 'ext2', usedBytes: 16 * 1024 * 1024, totalBytes: 64 * 1024 * 1024 }, { mountPoint: '/run', fileSystemType: 'tmpfs' }] },
    );
    expect(f.facts).toEqual([['OS', 'kubevirt-ts demo'], ['Kernel', '6.1.0-56-cloud-amd64 x86_64'], ['Hostname', 'demo'], ['Time zone', 'UTC, 0'], ['Agent', '7.2.19']]);
    expect(f.addresses).toEqual([{ name: 'eth0', ips: '10.0.2.2' }]);
    expect(f.users).toEqual([{ name: 'root', since: '2025-11-24 16:00:00 UTC' }]);
    expect(f.filesystems[0]).toMatchObject({ mount: '/mnt/vda', type: 'ext2', percent: 25 });
    expect(f.filesystems[0].used).toContain(' of ');
    expect(f.filesystems[1]).toMatchObject({ mount: '/run', used: '—', percent: undefined });
  });

  it('shows dashes, not blanks, when the agent says nothing', () => {
    expect(guestFacts(undefined, undefined, undefined).facts.every(([, v]) => v === '—')).toBe(true);
  });
});
