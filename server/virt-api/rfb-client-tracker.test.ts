import { describe, expect, it } from 'vitest';
import { RfbClientTracker } from './rfb-client-tracker';

const HANDSHAKE = Buffer.concat([Buffer.from('RFB 003.008\n', 'latin1'), Buffer.from([1, 1])]);
const pixelFormat = (bpp: number) => { const b = Buffer.alloc(20); b[4] = bpp; return b; };
const encodings = (...e: number[]) => { const b = Buffer.alloc(4 + 4 * e.length); b[0] = 2; b.writeUInt16BE(e.length, 2); e.forEach((x, i) => b.writeInt32BE(x, 4 + 4 * i)); return b; };
const fbur = () => { const b = Buffer.alloc(10); b[0] = 3; return b; };
const key = () => { const b = Buffer.alloc(8); b[0] = 4; return b; };
const pointer = () => { const b = Buffer.alloc(6); b[0] = 5; return b; };
const cutText = (t: string) => { const b = Buffer.alloc(8 + t.length); b[0] = 6; b.writeUInt32BE(t.length, 4); b.write(t, 8, 'latin1'); return b; };
const qemuKey = () => { const b = Buffer.alloc(12); b[0] = 255; return b; };

/** Feeds `bytes` in chunks of `size` (as a browser's frames may split or join messages). */
function feed(bytes: Buffer, size: number): RfbClientTracker {
  const t = new RfbClientTracker();
  for (let i = 0; i < bytes.length; i += size) t.take(bytes.subarray(i, i + size));
  return t;
}

describe('RfbClientTracker', () => {
  const session = Buffer.concat([HANDSHAKE, pixelFormat(16), encodings(0, 1), fbur(), key(), pointer(), cutText('hello'), qemuKey(), pixelFormat(32), encodings(7, 0, -223), fbur()]);

  it.each([1, 3, 7, 1000])('keeps the last pixel format and encodings, fed %i bytes at a time', (size) => {
    const t = feed(session, size);
    expect(t.atBoundary).toBe(true);
    expect(t.replay()).toEqual([pixelFormat(32), encodings(7, 0, -223)]);
  });

  it.each<[string, Buffer, boolean]>([
    ['mid-handshake', HANDSHAKE.subarray(0, 5), false],
    ['mid-message', Buffer.concat([HANDSHAKE, fbur().subarray(0, 4)]), false],
    ['an unknown message type: tracking is lost', Buffer.concat([HANDSHAKE, Buffer.from([99, 0, 0])]), false],
    ['between messages', Buffer.concat([HANDSHAKE, fbur()]), true],
  ])('is at a message boundary %s: %s', (_n, bytes, boundary) => {
    expect(feed(bytes, 1000).atBoundary).toBe(boundary);
  });
});
