import { describe, expect, it } from 'vitest';
import { answerFor } from './dhcp-server';
import { MessageType, type DhcpRequest } from './dhcp-codec';
import type { GuestLease } from './binding-plan';

const lease: GuestLease = {
  mac: '02:aa:bb:cc:dd:ee', ip: '10.0.2.2', prefix: 24, subnetMask: '255.255.255.0', router: '10.0.2.1', serverId: '10.0.2.1',
  dns: ['10.96.0.10'], search: ['default.svc.cluster.local'], hostname: 'vm', mtu: 1500, leaseSeconds: 0xffffffff,
};
const req = (r: Partial<DhcpRequest>): DhcpRequest => ({ xid: 9, mac: lease.mac, type: MessageType.discover, flags: 0, ciaddr: '0.0.0.0', ...r });

describe('DHCP answers for the one guest', () => {
  it.each<[string, Partial<DhcpRequest>, number | undefined]>([
    ['DISCOVER → OFFER', {}, MessageType.offer],
    ['REQUEST of our address → ACK', { type: MessageType.request, requestedIP: '10.0.2.2', serverId: '10.0.2.1' }, MessageType.ack],
    ['REQUEST while renewing (ciaddr) → ACK', { type: MessageType.request, ciaddr: '10.0.2.2' }, MessageType.ack],
    ['REQUEST of another address → NAK', { type: MessageType.request, requestedIP: '10.0.2.9' }, MessageType.nak],
    ['REQUEST to another server → silence', { type: MessageType.request, requestedIP: '10.0.2.2', serverId: '10.0.2.254' }, undefined],
    ['another MAC → silence', { mac: '02:00:00:00:00:01' }, undefined],
    ['RELEASE → silence', { type: MessageType.release }, undefined],
  ])('%s', (_what, r, type) => {
    expect(answerFor(req(r), lease)?.type).toBe(type);
  });

  it('offers the lease address and options', () => {
    expect(answerFor(req({}), lease)).toMatchObject({ xid: 9, yiaddr: '10.0.2.2', router: '10.0.2.1', dns: ['10.96.0.10'], searchDomains: ['default.svc.cluster.local'] });
  });
});
