/**
 * A forwarded UDP port through the real parts between virt-api and the guest: virt-handler's side
 * (openGuestPort + pumpDatagrams on a real WebSocket) and the launcher's port-forward socket
 * (PortForwardServer), with a UDP echo server standing in for the guest's port (the demo guest's
 * busybox has no UDP server).
 */
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { PortForwardServer } from '../virt-launcher/port-forward-server';
import { POD_FILES } from '../virt-launcher/protocol';
import { openGuestPort, pumpDatagrams } from './port-forward';

const dir = mkdtempSync(join(tmpdir(), 'pf-udp-'));
let guest: UdpSocket;
let guestPort: number;
let launcher: PortForwardServer;
let wss: WebSocketServer;
let http: Server;
let url: string;
const asked: string[] = [];

beforeAll(async () => {
  // the "guest": answers every datagram with "echo:" + what it got, to the sender
  guest = createSocket('udp4');
  guest.on('message', (msg, from) => guest.send(Buffer.concat([Buffer.from('echo:'), msg]), from.port, from.address));
  await new Promise<void>((resolve) => guest.bind(0, '127.0.0.1', resolve));
  guestPort = guest.address().port;
  launcher = new PortForwardServer(dir, async (port, protocol) => {
    asked.push(`${protocol} ${port}`);
    return { host: '127.0.0.1', port: guestPort };
  });
  await launcher.listen();
  // virt-handler's stream endpoint for portforward/<port>/udp: the launcher is asked before the upgrade, as handler-server does
  wss = new WebSocketServer({ noServer: true });
  http = createServer();
  http.on('upgrade', (req, socket, head) => {
    void openGuestPort(join(dir, POD_FILES.portForwardSocket), 5353, 'udp').then(
      (s) => wss.handleUpgrade(req, socket, head, (ws) => pumpDatagrams(ws, s)),
      () => socket.destroy(),
    );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(() => {
  launcher?.close();
  wss?.close();
  http?.close();
  guest?.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(): Promise<{ ws: WebSocket; got: Buffer[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const got: Buffer[] = [];
    ws.on('message', (d: Buffer) => got.push(d));
    ws.once('open', () => resolve({ ws, got }));
    ws.once('error', reject);
  });
}

const until = async (f: () => boolean) => { for (let i = 0; i < 100 && !f(); i++) await new Promise((r) => setTimeout(r, 20)); };

describe('UDP port-forward (virt-handler ⇄ launcher ⇄ the guest port)', () => {
  it('asks the launcher for "udp <port>"; each message is one datagram each way, boundaries kept, in order', async () => {
    const { ws, got } = await open();
    const sent = ['one', 'two', 'x'.repeat(60_000), '', 'last'];
    for (const s of sent) ws.send(Buffer.from(s));
    await until(() => got.length === sent.length);
    expect(asked).toContain('udp 5353');
    expect(got.map((b) => b.toString())).toEqual(sent.map((s) => `echo:${s}`));
    ws.close();
  });

  it('two clients get their own answers', async () => {
    const [a, b] = await Promise.all([open(), open()]);
    a.ws.send(Buffer.from('from a'));
    b.ws.send(Buffer.from('from b'));
    await until(() => a.got.length === 1 && b.got.length === 1);
    expect(a.got.map(String)).toEqual(['echo:from a']);
    expect(b.got.map(String)).toEqual(['echo:from b']);
    a.ws.close();
    b.ws.close();
  });
});
