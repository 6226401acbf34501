import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server, type Socket as TcpSocket } from 'node:net';
import dnsPacket, { type DecodedPacket, type Packet } from 'dns-packet';
import type pino from 'pino';
import { answerClusterQuestion, RCODE_SERVFAIL } from './dns-answer';
import type { DnsModel } from './dns-model';

export interface Upstream {
  address: string;
  port: number;
}

export interface DnsServerOptions {
  address: string;
  port: number;
  model: () => DnsModel;
  /** where names outside the cluster domain go; none → SERVFAIL */
  upstreams: () => Upstream[];
  /** total time a forwarded question may take before SERVFAIL */
  forwardTimeoutMs?: number;
  domain?: string;
  log: pino.Logger;
}

/** Nameservers of a resolv.conf (port 53), without `skip` (our own address: no forwarding loop). */
export function parseResolvConf(text: string, skip: string[] = []): Upstream[] {
  return text
    .split('\n')
    .map((l) => /^\s*nameserver\s+(\S+)/.exec(l)?.[1])
    .filter((a): a is string => !!a && /^\d+\.\d+\.\d+\.\d+$/.test(a) && !skip.includes(a))
    .map((address) => ({ address, port: 53 }));
}

const MAX_UDP = 512;

/** The cluster DNS server: UDP and TCP on one address, cluster names answered, others forwarded. */
export class DnsServer {
  private udp?: Socket;
  private tcp?: Server;
  private readonly tcpSockets = new Set<TcpSocket>();

  constructor(private readonly opts: DnsServerOptions) {}

  async listen(): Promise<{ port: number }> {
    const { address, port } = this.opts;
    const udp = createSocket({ type: 'udp4' });
    this.udp = udp;
    udp.on('message', (msg, rinfo) => {
      void this.handle(msg, 'udp').then((out) => out && udp.send(out, rinfo.port, rinfo.address));
    });
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(port, address, () => (udp.off('error', reject), resolve()));
    });
    const bound = udp.address().port;
    const tcp = createServer((sock) => this.serveTcp(sock));
    this.tcp = tcp;
    await new Promise<void>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(bound, address, () => (tcp.off('error', reject), resolve()));
    });
    return { port: bound };
  }

  async close(): Promise<void> {
    this.tcpSockets.forEach((s) => s.destroy());
    await Promise.all([
      new Promise<void>((r) => (this.udp ? this.udp.close(() => r()) : r())),
      new Promise<void>((r) => (this.tcp ? this.tcp.close(() => r()) : r())),
    ]);
  }

  private serveTcp(sock: TcpSocket): void {
    this.tcpSockets.add(sock);
    sock.on('close', () => this.tcpSockets.delete(sock));
    sock.on('error', () => sock.destroy());
    sock.setTimeout(10_000, () => sock.destroy());
    let buf = Buffer.alloc(0);
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        const msg = buf.subarray(2, 2 + buf.readUInt16BE(0));
        buf = buf.subarray(2 + msg.length);
        void this.handle(Buffer.from(msg), 'tcp').then((out) => {
          if (!out || sock.destroyed) return;
          const len = Buffer.alloc(2);
          len.writeUInt16BE(out.length);
          sock.write(Buffer.concat([len, out]));
        });
      }
    });
  }

  /** The response bytes for one query message (undefined: not a query we can parse, ignore it). */
  async handle(msg: Buffer, transport: 'udp' | 'tcp'): Promise<Buffer | undefined> {
    let query: DecodedPacket;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return undefined;
    }
    const q = query.questions?.[0];
    if (query.type !== 'query' || !q) return undefined;
    const rd = query.flag_rd ? dnsPacket.RECURSION_DESIRED : 0;
    const local = answerClusterQuestion(this.opts.model(), q, this.opts.domain);
    if (!local) return this.forward(msg, query, rd);
    const response: Packet = {
      type: 'response', id: query.id, flags: dnsPacket.AUTHORITATIVE_ANSWER | rd | dnsPacket.RECURSION_AVAILABLE | local.rcode,
      questions: [q], answers: local.answers, additionals: local.additionals, authorities: local.authorities,
    };
    const out = dnsPacket.encode(response);
    if (transport === 'udp' && out.length > MAX_UDP) {
      // too big for plain UDP: truncated, the client retries over TCP
      return dnsPacket.encode({ ...response, flags: (response.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE, answers: [], additionals: [] });
    }
    return out;
  }

  private servfail(query: DecodedPacket, rd: number): Buffer {
    return dnsPacket.encode({ type: 'response', id: query.id, flags: rd | dnsPacket.RECURSION_AVAILABLE | RCODE_SERVFAIL, questions: query.questions });
  }

  /** Ask every upstream at once over UDP; the first answer wins; SERVFAIL when none answers in time. */
  private forward(msg: Buffer, query: DecodedPacket, rd: number): Promise<Buffer> {
    const upstreams = this.opts.upstreams();
    if (!upstreams.length) return Promise.resolve(this.servfail(query, rd));
    return new Promise((resolve) => {
      const sock = createSocket('udp4');
      let done = false;
      const finish = (out: Buffer) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        sock.close();
        resolve(out);
      };
      const timer = setTimeout(() => finish(this.servfail(query, rd)), this.opts.forwardTimeoutMs ?? 1500);
      let failed = 0;
      sock.on('error', () => finish(this.servfail(query, rd)));
      sock.on('message', (reply) => {
        if (reply.length >= 2 && reply.readUInt16BE(0) === query.id) finish(reply);
      });
      for (const u of upstreams) {
        sock.send(msg, u.port, u.address, (err) => {
          if (err && ++failed === upstreams.length) finish(this.servfail(query, rd));
        });
      }
    });
  }
}
