/**
 * Resumes a browser's VNC session on a new server (the guest's QEMU on its new node): the proxy
 * does the RFB 3.8 handshake itself (security None, shared), swallows the ServerInit the browser
 * already had, replays the browser's SetPixelFormat/SetEncodings and asks for a full frame, so the
 * browser just keeps receiving framebuffer updates.
 */
import WebSocket from 'ws';
import type { RfbClientTracker } from './rfb-client-tracker';

const RFB_VERSION = Buffer.from('RFB 003.008\n', 'latin1');
const VERSION_BYTES = 12;
const SECURITY_NONE = 1;
const SERVER_INIT_FIXED_BYTES = 24;
const HANDSHAKE_TIMEOUT_MS = 10_000;

/** Reads exact byte counts from a WebSocket's binary messages. */
class SocketReader {
  private buf = Buffer.alloc(0);
  private wake?: () => void;
  private failure?: Error;

  constructor(private readonly ws: WebSocket) {
    ws.on('message', this.onMessage);
    ws.once('close', () => this.fail(new Error('VNC server closed during the handshake')));
    ws.resume();
  }

  private readonly onMessage = (d: Buffer) => { this.buf = Buffer.concat([this.buf, d]); this.wake?.(); };

  private fail(err: Error): void { this.failure = err; this.wake?.(); }

  async read(n: number): Promise<Buffer> {
    while (this.buf.length < n) {
      if (this.failure) throw this.failure;
      await new Promise<void>((r) => { this.wake = r; });
    }
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  /** Stops reading (the socket is paused until its next reader resumes it); returns what arrived beyond the handshake. */
  detach(): Buffer {
    this.ws.pause();
    this.ws.off('message', this.onMessage);
    return this.buf;
  }
}

async function handshake(ws: WebSocket, r: SocketReader): Promise<{ width: number; height: number }> {
  const version = (await r.read(VERSION_BYTES)).toString('latin1');
  if (!version.startsWith('RFB 003.')) throw new Error(`not an RFB server: ${JSON.stringify(version)}`);
  ws.send(RFB_VERSION);
  const count = (await r.read(1))[0];
  if (count === 0) throw new Error('VNC server refused the connection');
  const types = await r.read(count);
  if (!types.includes(SECURITY_NONE)) throw new Error('VNC server wants authentication');
  ws.send(Buffer.from([SECURITY_NONE]));
  if ((await r.read(4)).readUInt32BE(0) !== 0) throw new Error('VNC security handshake failed');
  ws.send(Buffer.from([1])); // ClientInit: shared
  const init = await r.read(SERVER_INIT_FIXED_BYTES);
  await r.read(init.readUInt32BE(20)); // desktop name
  return { width: init.readUInt16BE(0), height: init.readUInt16BE(2) };
}

function fullUpdateRequest(width: number, height: number): Buffer {
  const b = Buffer.alloc(10);
  b[0] = 3; // FramebufferUpdateRequest, non-incremental
  b.writeUInt16BE(width, 6);
  b.writeUInt16BE(height, 8);
  return b;
}

/**
 * Brings `upstream` (a fresh VNC stream) to where the browser's session is. Returns bytes the server
 * sent past its ServerInit (to forward to the browser). Throws if the server is not what we expect.
 */
export async function resumeVncSession(upstream: WebSocket, tracker: RfbClientTracker): Promise<Buffer> {
  const reader = new SocketReader(upstream);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('VNC handshake timed out')), HANDSHAKE_TIMEOUT_MS); });
  try {
    const { width, height } = await Promise.race([handshake(upstream, reader), timeout]);
    for (const m of tracker.replay()) upstream.send(m);
    upstream.send(fullUpdateRequest(width, height));
    return reader.detach();
  } finally {
    clearTimeout(timer);
    reader.detach();
  }
}
