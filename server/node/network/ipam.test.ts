import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Ipam, cidrString, gatewayOf, nextFreeIp, parseCidr } from './ipam';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'ipam-'));
  dirs.push(d);
  return d;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('pod IPAM', () => {
  it('parses a CIDR to its network address and rejects bad ones', () => {
    expect(cidrString(parseCidr('10.244.3.77/24'))).toBe('10.244.3.0/24');
    expect(gatewayOf(parseCidr('10.244.3.0/24'))).toBe('10.244.3.1');
    expect(() => parseCidr('10.244.300.0/24')).toThrow('invalid CIDR address');
    expect(() => parseCidr('10.244.3.0')).toThrow('invalid CIDR address');
  });

  it('skips the gateway and stops before broadcast', () => {
    const c = parseCidr('10.0.0.0/30');
    expect(nextFreeIp(c, new Set())).toBe('10.0.0.2');
    expect(nextFreeIp(c, new Set(['10.0.0.2']))).toBeUndefined();
  });

  it('allocates distinct addresses, keeps them across a new allocator, and reuses released ones', () => {
    const dir = tmp();
    const a = new Ipam(dir, parseCidr('10.244.9.0/24'));
    expect(a.allocate('uid-a')).toBe('10.244.9.2');
    expect(a.allocate('uid-b')).toBe('10.244.9.3');
    expect(a.allocate('uid-a')).toBe('10.244.9.2');
    const restarted = new Ipam(dir, parseCidr('10.244.9.0/24'));
    expect(restarted.allocations()).toEqual(new Map([['uid-a', '10.244.9.2'], ['uid-b', '10.244.9.3']]));
    expect(restarted.allocate('uid-c')).toBe('10.244.9.4');
    restarted.release('uid-a');
    expect(restarted.allocate('uid-d')).toBe('10.244.9.2');
  });

  it('says so when the range is full', () => {
    const a = new Ipam(tmp(), parseCidr('10.0.0.0/30'));
    a.allocate('one');
    expect(() => a.allocate('two')).toThrow('no free pod IP in 10.0.0.0/30');
  });
});
