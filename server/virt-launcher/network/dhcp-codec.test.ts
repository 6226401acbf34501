import { describe, expect, it } from 'vitest';
import { decodeOptions, decodeRequest, encodeAnswer, encodeDomainList, MessageType, Option, prefixToMask } from './dhcp-codec';

/** A DHCPDISCOVER laid out as busybox udhcpc sends it: xid, chaddr, options 53/61/57/55/60/12. */
function discover(mac: number[], xid = 0x1a2b3c4d): Buffer {
  const b = Buffer.alloc(236);
  b[0] = 1; b[1] = 1; b[2] = 6;
  b.writeUInt32BE(xid, 4);
  Buffer.from(mac).copy(b, 28);
  const opts = [0x63, 0x82, 0x53, 0x63, 53, 1, 1, 61, 7, 1, ...mac, 57, 2, 0x02, 0x40, 55, 7, 1, 3, 6, 12, 15, 28, 119, 50, 4, 10, 0, 2, 2, 0, 0, 255];
  return Buffer.concat([b, Buffer.from(opts), Buffer.alloc(20)]);
}

describe('DHCP codec', () => {
  it('decodes a client DISCOVER (type, xid, MAC, requested address; pads skipped)', () => {
    expect(decodeRequest(discover([0x02, 0xab, 0, 1, 2, 0xff]))).toEqual({
      xid: 0x1a2b3c4d, flags: 0, ciaddr: '0.0.0.0', type: MessageType.discover, mac: '02:ab:00:01:02:ff', requestedIP: '10.0.2.2', serverId: undefined,
    });
  });

  it.each([
    ['a reply (op 2)', (b: Buffer) => { b[0] = 2; }],
    ['no magic cookie', (b: Buffer) => { b[236] = 0; }],
    ['not Ethernet', (b: Buffer) => { b[1] = 6; }],
  ])('ignores %s', (_what, spoil) => {
    const b = discover([2, 0, 0, 0, 0, 1]);
    spoil(b);
    expect(decodeRequest(b)).toBeUndefined();
  });

  it('ignores a truncated packet', () => expect(decodeRequest(Buffer.alloc(100))).toBeUndefined());

  it('encodes an OFFER with the options a guest needs', () => {
    const b = encodeAnswer({
      type: MessageType.offer, xid: 7, mac: '02:00:00:00:00:01', flags: 0x8000, yiaddr: '10.0.2.2', serverId: '10.0.2.1',
      subnetMask: '255.255.255.0', router: '10.0.2.1', dns: ['10.96.0.10'], hostname: 'vm-a',
      searchDomains: ['default.svc.cluster.local', 'svc.cluster.local'], mtu: 1450, leaseSeconds: 0xffffffff,
    });
    expect(b.length).toBeGreaterThanOrEqual(300);
    expect([b[0], b.readUInt32BE(4), b.readUInt16BE(10)]).toEqual([2, 7, 0x8000]);
    expect([...b.subarray(16, 24)]).toEqual([10, 0, 2, 2, 10, 0, 2, 1]);
    expect([...b.subarray(28, 34)]).toEqual([2, 0, 0, 0, 0, 1]);
    const o = decodeOptions(b);
    expect([...o.get(Option.messageType)!]).toEqual([2]);
    expect([...o.get(Option.subnetMask)!]).toEqual([255, 255, 255, 0]);
    expect([...o.get(Option.dns)!]).toEqual([10, 96, 0, 10]);
    expect(o.get(Option.hostname)!.toString()).toBe('vm-a');
    expect(o.get(Option.domainName)!.toString()).toBe('default.svc.cluster.local');
    expect(o.get(Option.leaseTime)!.readUInt32BE(0)).toBe(0xffffffff);
    expect(o.get(Option.mtu)!.readUInt16BE(0)).toBe(1450);
    expect([...o.get(Option.domainSearch)!]).toEqual(encodeDomainList(['default.svc.cluster.local', 'svc.cluster.local']));
  });

  it('encodes a NAK without an address or lease options', () => {
    const o = decodeOptions(encodeAnswer({ type: MessageType.nak, xid: 1, mac: '02:00:00:00:00:01', flags: 0, yiaddr: '10.0.2.2', serverId: '10.0.2.1', dns: ['1.1.1.1'] }));
    expect([...o.keys()]).toEqual([Option.messageType, Option.serverId]);
  });

  it('writes search domains as RFC 1035 labels', () => {
    expect(encodeDomainList(['a.bc', 'd.'])).toEqual([1, 97, 2, 98, 99, 0, 1, 100, 0]);
  });

  it.each([[24, '255.255.255.0'], [16, '255.255.0.0'], [32, '255.255.255.255'], [0, '0.0.0.0'], [20, '255.255.240.0']])('prefix /%i → %s', (p, m) => {
    expect(prefixToMask(p)).toBe(m);
  });
});
