/**
 * Just enough RFB 3.8 (RFC 6143) over a WebSocket to prove a VNC stream is real: version
 * handshake, security None, ServerInit, one full FramebufferUpdateRequest, raw pixels back.
 */
import type { WebSocket } from 'ws';
import { takeEarlyMessages } from './stack-helpers';

class ByteReader {
  private buf = Buffer.alloc(0);
  private waiter?: () => void;

  constructor(ws: WebSocket) {
    this.buf = Buffer.concat(takeEarlyMessages(ws));
    ws.on('message', (d: Buffer) => { this.buf = Buffer.concat([this.buf, d]); this.waiter?.(); });
  }

  async read(n: number, timeoutMs: number): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    while (this.buf.length < n) {
      if (Date.now() > deadline) throw new Error(`RFB: wanted ${n} bytes, have ${this.buf.length}`);
      await new Promise<void>((r) => { this.waiter = r; setTimeout(r, 200); });
    }
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }
}

export interface RFBProbe { version: string; width: number; height: number; name: string; distinctBytes: number }

/** Handshake and one framebuffer: `distinctBytes` > 1 means the screen is not blank. */
export async function probeRFB(ws: WebSocket, timeoutMs = 20_000): Promise<RFBProbe> {
  const r = new ByteReader(ws);
  const version = (await r.read(12, timeoutMs)).toString('latin1');
  ws.send(Buffer.from('RFB 003.008\n', 'latin1'));
  const nTypes = (await r.read(1, timeoutMs))[0];
  const types = await r.read(nTypes, timeoutMs);
  if (!types.includes(1)) throw new Error(`RFB: no security type None in [${[...types]}]`);
  ws.send(Buffer.from([1]));
  if ((await r.read(4, timeoutMs)).readUInt32BE(0) !== 0) throw new Error('RFB: security handshake failed');
  ws.send(Buffer.from([1])); // ClientInit, shared
  const init = await r.read(24, timeoutMs);
  const width = init.readUInt16BE(0);
  const height = init.readUInt16BE(2);
  const bpp = init[4];
  const name = (await r.read(init.readUInt32BE(20), timeoutMs)).toString('utf8');
  const req = Buffer.alloc(10);
  req.writeUInt8(3, 0); req.writeUInt8(0, 1); req.writeUInt16BE(width, 6); req.writeUInt16BE(height, 8);
  ws.send(req);
  const head = await r.read(4, timeoutMs);
  if (head[0] !== 0) throw new Error(`RFB: unexpected server message ${head[0]}`);
  const seen = new Set<number>();
  for (let i = 0; i < head.readUInt16BE(2); i++) {
    const rect = await r.read(12, timeoutMs);
    const [w, h, enc] = [rect.readUInt16BE(4), rect.readUInt16BE(6), rect.readInt32BE(8)];
    if (enc !== 0) throw new Error(`RFB: unexpected encoding ${enc}`);
    const pixels = await r.read(w * h * (bpp / 8), timeoutMs);
    for (let p = 0; p < pixels.length && seen.size < 16; p += 97) seen.add(pixels[p]);
  }
  return { version: version.trim(), width, height, name, distinctBytes: seen.size };
}
