/**
 * SPDY/3.1 framing (the protocol kube's port-forward, exec and attach streams speak): an 8-byte
 * head, then the payload. A control frame's head is C=1, version 3, a 16-bit type, 8-bit flags
 * and a 24-bit length; a data frame's is C=0, a 31-bit stream id, flags (FIN) and a length.
 * Header blocks stay compressed here; header-block.ts inflates them in wire order.
 */
export const SPDY_VERSION = 3;

export const FrameType = {
  SYN_STREAM: 1, SYN_REPLY: 2, RST_STREAM: 3, SETTINGS: 4, PING: 6, GOAWAY: 7, HEADERS: 8, WINDOW_UPDATE: 9,
} as const;

export const FLAG_FIN = 0x01;
export const FLAG_UNIDIRECTIONAL = 0x02;

/** RST_STREAM status codes used here */
export const RstStatus = { PROTOCOL_ERROR: 1, INVALID_STREAM: 2, REFUSED_STREAM: 3, CANCEL: 5, INTERNAL_ERROR: 6 } as const;

/** a peer may send frames up to 2^24 - 1 bytes; kube's frames are far smaller */
const HEAD = 8;
const STREAM_ID_MASK = 0x7fffffff;

export type SpdyFrame =
  | { kind: 'data'; streamId: number; flags: number; data: Buffer }
  | { kind: 'control'; type: number; version: number; flags: number; payload: Buffer };

/** Cuts a byte stream (possibly arriving in arbitrary pieces) into whole frames. */
export class FrameReader {
  private buf: Buffer = Buffer.alloc(0);
  push(chunk: Buffer): SpdyFrame[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const frames: SpdyFrame[] = [];
    while (this.buf.length >= HEAD) {
      const length = this.buf.readUIntBE(5, 3);
      if (this.buf.length < HEAD + length) break;
      const flags = this.buf[4];
      const payload = this.buf.subarray(HEAD, HEAD + length);
      const first = this.buf.readUInt32BE(0);
      if (first & 0x80000000) frames.push({ kind: 'control', version: (first >>> 16) & 0x7fff, type: first & 0xffff, flags, payload });
      else frames.push({ kind: 'data', streamId: first & STREAM_ID_MASK, flags, data: payload });
      this.buf = this.buf.subarray(HEAD + length);
    }
    return frames;
  }
}

function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(HEAD);
  head.writeUInt32BE((0x80000000 | (SPDY_VERSION << 16) | type) >>> 0, 0);
  head[4] = flags;
  head.writeUIntBE(payload.length, 5, 3);
  return Buffer.concat([head, payload]);
}

const u32s = (...values: number[]): Buffer => {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, 4 * i));
  return b;
};

export function dataFrame(streamId: number, data: Buffer, fin = false): Buffer {
  const head = Buffer.alloc(HEAD);
  head.writeUInt32BE(streamId & STREAM_ID_MASK, 0);
  head[4] = fin ? FLAG_FIN : 0;
  head.writeUIntBE(data.length, 5, 3);
  return Buffer.concat([head, data]);
}

export function synStreamFrame(streamId: number, headerBlock: Buffer, flags = 0): Buffer {
  // associated-to stream 0, priority 0, slot 0
  return controlFrame(FrameType.SYN_STREAM, flags, Buffer.concat([u32s(streamId & STREAM_ID_MASK, 0), Buffer.alloc(2), headerBlock]));
}

export function synReplyFrame(streamId: number, headerBlock: Buffer, flags = 0): Buffer {
  return controlFrame(FrameType.SYN_REPLY, flags, Buffer.concat([u32s(streamId & STREAM_ID_MASK), headerBlock]));
}

export function rstStreamFrame(streamId: number, status: number): Buffer {
  return controlFrame(FrameType.RST_STREAM, 0, u32s(streamId & STREAM_ID_MASK, status));
}

export function pingFrame(id: number): Buffer {
  return controlFrame(FrameType.PING, 0, u32s(id));
}

export function goAwayFrame(lastGoodStreamId: number, status = 0): Buffer {
  return controlFrame(FrameType.GOAWAY, 0, u32s(lastGoodStreamId & STREAM_ID_MASK, status));
}

export function windowUpdateFrame(streamId: number, delta: number): Buffer {
  return controlFrame(FrameType.WINDOW_UPDATE, 0, u32s(streamId & STREAM_ID_MASK, delta & STREAM_ID_MASK));
}

export function settingsFrame(entries: { id: number; value: number; flags?: number }[]): Buffer {
  const body = Buffer.alloc(4 + 8 * entries.length);
  body.writeUInt32BE(entries.length, 0);
  entries.forEach((e, i) => {
    body.writeUInt32BE((((e.flags ?? 0) << 24) | (e.id & 0xffffff)) >>> 0, 4 + 8 * i);
    body.writeUInt32BE(e.value >>> 0, 8 + 8 * i);
  });
  return controlFrame(FrameType.SETTINGS, 0, body);
}

/** the stream id a SYN_STREAM, SYN_REPLY, RST_STREAM, HEADERS or WINDOW_UPDATE payload starts with */
export const payloadStreamId = (payload: Buffer): number => (payload.length >= 4 ? payload.readUInt32BE(0) & STREAM_ID_MASK : 0);

/** where a SYN_STREAM's header block starts (stream id, associated id, priority, slot) */
export const SYN_STREAM_HEADERS_AT = 10;
/** where a SYN_REPLY's or HEADERS' header block starts */
export const SYN_REPLY_HEADERS_AT = 4;
