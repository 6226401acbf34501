/**
 * The launcher's DHCP server for its one guest: UDP 0.0.0.0:67 inside the Pod's namespace
 * (the guest's bridge is the only link a DHCP client sits on; requests from other MACs are
 * ignored), answers broadcast to 255.255.255.255:68 (routed to the bridge by the plan).
 */
import { createSocket, type Socket } from 'node:dgram';
import type { Logger } from 'pino';
import { DHCP_CLIENT_PORT, DHCP_SERVER_PORT, decodeRequest, encodeAnswer, MessageType, type DhcpAnswer, type DhcpRequest } from './dhcp-codec';
import type { GuestLease } from './binding-plan';

/** PURE: the answer to a request, or undefined when the request is not ours to answer. */
export function answerFor(req: DhcpRequest, lease: GuestLease): DhcpAnswer | undefined {
  if (req.mac !== lease.mac.toLowerCase()) return undefined;
  const base = { xid: req.xid, mac: req.mac, flags: req.flags, serverId: lease.serverId };
  if (req.type === MessageType.discover) return { ...base, ...leaseOptions(lease), type: MessageType.offer };
  if (req.type !== MessageType.request) return undefined;
  if (req.serverId && req.serverId !== lease.serverId) return undefined; // the client chose another server
  const wanted = req.requestedIP ?? (req.ciaddr !== '0.0.0.0' ? req.ciaddr : undefined);
  if (wanted && wanted !== lease.ip) return { ...base, yiaddr: '0.0.0.0', type: MessageType.nak };
  return { ...base, ...leaseOptions(lease), type: MessageType.ack };
}

function leaseOptions(l: GuestLease): Omit<DhcpAnswer, 'type' | 'xid' | 'mac' | 'flags' | 'serverId'> {
  return {
    yiaddr: l.ip, subnetMask: l.subnetMask, router: l.router, dns: l.dns, hostname: l.hostname,
    searchDomains: l.search, mtu: l.mtu, leaseSeconds: l.leaseSeconds,
  };
}

export interface DhcpServer { close(): Promise<void>; answered: () => number }

export function startDhcpServer(opts: { lease: GuestLease; log: Logger; port?: number; replyTo?: string }): Promise<DhcpServer> {
  const sock: Socket = createSocket({ type: 'udp4', reuseAddr: true });
  let answered = 0;
  sock.on('message', (msg) => {
    const req = decodeRequest(msg);
    const answer = req && answerFor(req, opts.lease);
    if (!answer) return;
    sock.send(encodeAnswer(answer), DHCP_CLIENT_PORT, opts.replyTo ?? '255.255.255.255', (err) => {
      if (err) opts.log.warn({ err: err.message }, 'DHCP answer not sent');
    });
    answered += 1;
    opts.log.info({ type: answer.type, ip: answer.yiaddr, mac: answer.mac }, 'DHCP answer');
  });
  return new Promise((resolve, reject) => {
    sock.once('error', reject);
    sock.bind(opts.port ?? DHCP_SERVER_PORT, '0.0.0.0', () => {
      sock.off('error', reject);
      sock.on('error', (err) => opts.log.warn({ err: err.message }, 'DHCP socket error'));
      sock.setBroadcast(true);
      resolve({ answered: () => answered, close: () => new Promise<void>((r) => sock.close(() => r())) });
    });
  });
}
