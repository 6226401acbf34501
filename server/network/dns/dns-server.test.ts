import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import dnsPacket, { type DecodedPacket as PacketBase, type Packet, type StringAnswer } from 'dns-packet';

/** dns-packet decodes the rcode too; its types omit it */
type DecodedPacket = PacketBase & { rcode: string };
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDnsModel } from './dns-model';
import { DnsServer, parseResolvConf, type Upstream } from './dns-server';

const log = pino({ level: 'silent' });
const model = buildDnsModel([{ metadata: { namespace: 'default', name: 'web' }, spec: { clusterIP: '10.96.7.7', ports: [{ port: 80 }] } }], () => []);

function udpQuery(port: number, q: Packet, timeoutMs = 4000): Promise<DecodedPacket> {
  return new Promise((resolve, reject) => {
    const s = createSocket('udp4');
    const t = setTimeout(() => (s.close(), reject(new Error('no answer'))), timeoutMs);
    s.on('message', (m) => (clearTimeout(t), s.close(), resolve(dnsPacket.decode(m) as DecodedPacket)));
    s.send(dnsPacket.encode(q), port, '127.0.0.1');
  });
}

function tcpQuery(port: number, q: Packet): Promise<DecodedPacket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(dnsPacket.streamEncode(q)));
    let buf = Buffer.alloc(0);
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length < 2 || buf.length < 2 + buf.readUInt16BE(0)) return;
      s.destroy();
      resolve(dnsPacket.decode(buf.subarray(2)) as DecodedPacket);
    });
    s.on('error', reject);
  });
}

const query = (name: string, type: 'A' | 'AAAA' = 'A'): Packet => ({ type: 'query', id: Math.floor(Math.random() * 65535), flags: dnsPacket.RECURSION_DESIRED, questions: [{ name, type, class: 'IN' }] });

describe('DNS server on real sockets (127.0.0.1)', () => {
  let upstream: ReturnType<typeof createSocket>;
  let upstreamPort = 0;
  let upstreams: Upstream[] = [];
  let server: DnsServer;
  let port = 0;

  beforeAll(async () => {
    // an upstream resolver of our own on loopback: answers example.test with 192.0.2.44
    upstream = createSocket('udp4');
    upstream.on('message', (m, r) => {
      const q = dnsPacket.decode(m);
      upstream.send(dnsPacket.encode({ type: 'response', id: q.id, flags: dnsPacket.RECURSION_AVAILABLE, questions: q.questions, answers: [{ type: 'A', name: q.questions![0]!.name, ttl: 60, data: '192.0.2.44' }] }), r.port, r.address);
    });
    await new Promise<void>((r) => upstream.bind(0, '127.0.0.1', r));
    upstreamPort = upstream.address().port;
    server = new DnsServer({ address: '127.0.0.1', port: 0, log, model: () => model, upstreams: () => upstreams, forwardTimeoutMs: 1500 });
    port = (await server.listen()).port;
  });
  afterAll(async () => {
    await server?.close();
    upstream?.close();
  });

  it('answers a Service name over UDP and TCP, authoritative, with the query id', async () => {
    for (const ask of [udpQuery, tcpQuery]) {
      const q = query('web.default.svc.cluster.local');
      const r = await ask(port, q);
      expect(r.id).toBe(q.id);
      expect(r.flag_aa).toBe(true);
      expect(r.rcode).toBe('NOERROR');
      expect(r.answers?.map((a) => (a as StringAnswer).data)).toEqual(['10.96.7.7']);
    }
  });

  it('says NXDOMAIN for an unknown cluster name', async () => {
    expect((await udpQuery(port, query('nope.default.svc.cluster.local'))).rcode).toBe('NXDOMAIN');
  });

  it('forwards other names to the upstream resolver', async () => {
    upstreams = [{ address: '127.0.0.1', port: upstreamPort }];
    const r = await udpQuery(port, query('example.test'));
    expect(r.rcode).toBe('NOERROR');
    expect(r.answers?.map((a) => (a as StringAnswer).data)).toEqual(['192.0.2.44']);
  });

  it('fails fast with SERVFAIL when there is no upstream, or none answers', async () => {
    upstreams = [];
    let t = Date.now();
    expect((await udpQuery(port, query('example.test'))).rcode).toBe('SERVFAIL');
    expect(Date.now() - t).toBeLessThan(200);
    // a loopback port nobody answers on (a closed socket's port)
    const dead = createSocket('udp4');
    await new Promise<void>((r) => dead.bind(0, '127.0.0.1', r));
    upstreams = [{ address: '127.0.0.1', port: dead.address().port }];
    dead.close();
    t = Date.now();
    expect((await udpQuery(port, query('example.test'))).rcode).toBe('SERVFAIL');
    expect(Date.now() - t).toBeLessThan(2000);
  });

  it('reads nameservers from resolv.conf, keeping loopback ones and skipping its own address', () => {
    expect(parseResolvConf('# c\nnameserver 127.0.0.53\nnameserver 10.96.0.10\nnameserver fe80::1\n  nameserver 192.0.2.1\noptions ndots:5\n', ['10.96.0.10'])).toEqual([
      { address: '127.0.0.53', port: 53 },
      { address: '192.0.2.1', port: 53 },
    ]);
  });
});
