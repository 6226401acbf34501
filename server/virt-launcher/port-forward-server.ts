/**
 * `<pod dir>/portforward.sock`: virt-handler opens one connection per forwarded stream and writes
 * one line, `tcp <port>\n` or `udp <port>\n`. The launcher (inside the Pod's network namespace)
 * connects to the guest port and answers `OK\n`, after which bytes flow both ways (for UDP, each
 * datagram framed with its length: server/http/datagram-frames.ts), or `ERR <message>\n` and closes.
 */
import { createSocket } from 'node:dgram';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { POD_FILES } from './protocol';
import type { GuestEndpoint, GuestProtocol } from './guest-ports';
import { DatagramDeframer, frameDatagram } from '../http/datagram-frames';

const REQUEST = /^(tcp|udp) (\d{1,5})$/;
const MAX_REQUEST_BYTES = 64;
const CONNECT_TIMEOUT_MS = 5_000;

export type ResolveGuestPort = (port: number, protocol: GuestProtocol) => Promise<GuestEndpoint>;

function dial(ep: GuestEndpoint): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(ep.port, ep.host);
    const timer = setTimeout(() => { s.destroy(); reject(new Error('connection timed out')); }, CONNECT_TIMEOUT_MS);
    s.once('connect', () => { clearTimeout(timer); s.removeAllListeners('error'); resolve(s); });
    s.once('error', (err) => { clearTimeout(timer); reject(err); });
  });
}

/** Reads the request line without consuming any byte after it. */
function readRequest(client: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const nl = buf.indexOf(0x0a);
      if (nl < 0 && buf.length <= MAX_REQUEST_BYTES) return;
      client.off('data', onData);
      client.pause();
      if (nl < 0) return reject(new Error('request line too long'));
      const rest = buf.subarray(nl + 1);
      if (rest.length) client.unshift(rest);
      resolve(buf.subarray(0, nl).toString('utf8').trim());
    };
    client.on('data', onData);
    client.once('error', reject);
  });
}

export class PortForwardServer {
  private server?: Server;

  constructor(private readonly podDir: string, private readonly resolve: ResolveGuestPort) {}

  async listen(): Promise<void> {
    const path = join(this.podDir, POD_FILES.portForwardSocket);
    await rm(path, { force: true });
    this.server = createServer((c) => void this.serve(c));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(path, () => resolve());
    });
  }

  close(): void {
    this.server?.close();
  }

  private async serve(client: Socket): Promise<void> {
    client.on('error', () => client.destroy());
    let guest: Socket;
    try {
      const m = REQUEST.exec(await readRequest(client));
      if (!m) throw new Error('expected "tcp <port>" or "udp <port>"');
      const endpoint = await this.resolve(Number(m[2]), m[1] as GuestProtocol);
      if (m[1] === 'udp') return relayDatagrams(client, endpoint);
      guest = await dial(endpoint);
    } catch (err) {
      if (client.writable) client.end(`ERR ${(err as Error).message}\n`);
      return;
    }
    guest.on('error', () => client.destroy());
    client.on('close', () => guest.destroy());
    guest.on('close', () => client.end());
    client.write('OK\n');
    client.pipe(guest);
    guest.pipe(client);
    client.resume();
  }
}

/** one UDP "connection": datagrams to the guest's port from one socket, its answers framed back */
function relayDatagrams(client: Socket, ep: GuestEndpoint): void {
  const udp = createSocket('udp4');
  const close = () => { try { udp.close(); } catch { /* already closed */ } client.destroy(); };
  // a closed guest port answers with ICMP port unreachable: UDP's "no one there", not the end of the stream
  const onSendError = (err: (Error & { code?: string }) | null) => { if (err && err.code !== 'ECONNREFUSED') close(); };
  udp.on('error', (err: Error & { code?: string }) => onSendError(err));
  udp.on('message', (msg) => { if (client.writable) client.write(frameDatagram(msg)); });
  udp.connect(ep.port, ep.host, () => {
    const deframer = new DatagramDeframer((payload) => udp.send(payload, onSendError));
    client.on('data', (chunk: Buffer) => deframer.push(chunk));
    client.on('close', close);
    client.write('OK\n');
    client.resume();
  });
}
