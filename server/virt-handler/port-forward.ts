/**
 * virt-handler's side of the `portforward` subresource: asks the VMI's launcher for a stream to the
 * guest port (`<pod dir>/portforward.sock`) BEFORE the WebSocket upgrade, so a closed port or a
 * guest without a pod interface is an HTTP error; then bytes flow between the WebSocket and the
 * launcher's socket. Every stream is its own connection (no session replacement, unlike VNC).
 */
import { connect, type Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { CloseCode } from './constants';
import { HttpError } from './http-errors';
import { DatagramDeframer, frameDatagram, MAX_DATAGRAM } from '../http/datagram-frames';

const REPLY_TIMEOUT_MS = 7_000;
const MAX_REPLY_BYTES = 512;

/** `portforward/<port>` or `portforward/<port>/<protocol>` → the port and protocol, or undefined. */
export function parsePortForward(sub: string): { port: number; protocol: 'tcp' | 'udp' } | undefined {
  const m = /^portforward\/(\d{1,5})(?:\/(tcp|udp))?$/.exec(sub);
  if (!m) return undefined;
  const port = Number(m[1]);
  if (port < 1 || port > 65535) return undefined;
  return { port, protocol: (m[2] ?? 'tcp') as 'tcp' | 'udp' };
}

/** Connects through the launcher to the guest's TCP or UDP port; resolves with the socket once the launcher said OK. */
export function openGuestPort(socketPath: string, port: number, protocol: 'tcp' | 'udp' = 'tcp'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(socketPath);
    let buf = Buffer.alloc(0);
    const fail = (err: HttpError) => { clearTimeout(timer); s.destroy(); reject(err); };
    const timer = setTimeout(() => fail(new HttpError(504, `timed out connecting to port ${port} of the guest`)), REPLY_TIMEOUT_MS);
    s.once('connect', () => s.write(`${protocol} ${port}\n`));
    s.on('error', (err) => fail(new HttpError(503, `cannot reach the launcher: ${err.message}`)));
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const nl = buf.indexOf(0x0a);
      if (nl < 0) return void (buf.length > MAX_REPLY_BYTES && fail(new HttpError(502, 'bad reply from the launcher')));
      s.off('data', onData);
      s.pause();
      const line = buf.subarray(0, nl).toString('utf8');
      if (!line.startsWith('OK')) return fail(new HttpError(502, `cannot connect to port ${port} of the guest: ${line.replace(/^ERR /, '')}`));
      clearTimeout(timer);
      s.removeAllListeners('error');
      const rest = buf.subarray(nl + 1);
      if (rest.length) s.unshift(rest);
      resolve(s);
    };
    s.on('data', onData);
  });
}

/**
 * Pumps one forwarded UDP port: each WebSocket message is one datagram to the guest, each datagram
 * back one message (framed with its length on the launcher's socket).
 */
export function pumpDatagrams(ws: WebSocket, guest: Socket): void {
  const deframer = new DatagramDeframer((payload) => { if (ws.readyState === ws.OPEN) ws.send(payload, { binary: true }); });
  guest.on('data', (chunk: Buffer) => deframer.push(chunk));
  guest.on('close', () => { if (ws.readyState === ws.OPEN) ws.close(CloseCode.GuestGone, 'guest port closed'); });
  guest.on('error', () => guest.destroy());
  ws.on('message', (data: Buffer | Buffer[] | ArrayBuffer) => {
    const payload = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (payload.length <= MAX_DATAGRAM) guest.write(frameDatagram(payload));
  });
  ws.on('close', () => guest.end());
  ws.on('error', () => guest.destroy());
  guest.resume();
}

/** Pumps one port-forward stream until either side closes. */
export function pumpPortForward(ws: WebSocket, guest: Socket): void {
  guest.on('data', (chunk: Buffer) => { if (ws.readyState === ws.OPEN) ws.send(chunk, { binary: true }); });
  guest.on('close', () => { if (ws.readyState === ws.OPEN) ws.close(CloseCode.GuestGone, 'guest port closed'); });
  guest.on('error', () => guest.destroy());
  ws.on('message', (data: Buffer | Buffer[] | ArrayBuffer) => {
    guest.write(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer));
  });
  ws.on('close', () => guest.end());
  ws.on('error', () => guest.destroy());
  guest.resume();
}
