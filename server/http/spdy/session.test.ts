import { describe, expect, it } from 'vitest';
import {
  dataFrame, FLAG_FIN, FrameReader, FrameType, goAwayFrame, payloadStreamId, pingFrame, RstStatus, rstStreamFrame,
  settingsFrame, SYN_REPLY_HEADERS_AT, synStreamFrame, windowUpdateFrame, type SpdyFrame,
} from './frames';
import { decodeHeaderPairs, encodeHeaderPairs, HeaderCompressor, HeaderDecompressor } from './header-block';
import { SpdySession, type SpdyStream } from './session';

/** the client end, written from the spec: frames out through `session.receive`, frames back read here */
function harness() {
  const reader = new FrameReader();
  const frames: SpdyFrame[] = [];
  const streams: SpdyStream[] = [];
  let closed = false;
  const session = new SpdySession({ write: async (b) => { frames.push(...reader.push(b)); }, close: () => { closed = true; } }, (s) => streams.push(s));
  const deflate = new HeaderCompressor();
  const inflate = new HeaderDecompressor();
  const settle = () => new Promise((r) => setTimeout(r, 20));
  return {
    session, frames, streams, inflate, settle,
    isClosed: () => closed,
    open: async (id: number, headers: Record<string, string>, flags = 0) => session.receive(synStreamFrame(id, await deflate.compress(headers), flags)),
    ofType: (type: number) => frames.filter((f) => f.kind === 'control' && f.type === type) as Extract<SpdyFrame, { kind: 'control' }>[],
    dataFor: (id: number) => frames.filter((f) => f.kind === 'data' && f.streamId === id) as Extract<SpdyFrame, { kind: 'data' }>[],
  };
}

describe('SPDY/3.1 frames', () => {
  it('reads frames however the bytes are cut', () => {
    const bytes = Buffer.concat([dataFrame(1, Buffer.from('hello')), pingFrame(7), rstStreamFrame(3, RstStatus.CANCEL), dataFrame(5, Buffer.alloc(0), true)]);
    const r = new FrameReader();
    const got: SpdyFrame[] = [];
    for (const byte of bytes) got.push(...r.push(Buffer.from([byte])));
    expect(got).toEqual([
      { kind: 'data', streamId: 1, flags: 0, data: Buffer.from('hello') },
      { kind: 'control', version: 3, type: FrameType.PING, flags: 0, payload: Buffer.from([0, 0, 0, 7]) },
      { kind: 'control', version: 3, type: FrameType.RST_STREAM, flags: 0, payload: Buffer.from([0, 0, 0, 3, 0, 0, 0, 5]) },
      { kind: 'data', streamId: 5, flags: FLAG_FIN, data: Buffer.alloc(0) },
    ]);
  });

  it('writes the heads the spec lays out', () => {
    expect(pingFrame(1).toString('hex')).toBe('8003000600000004' + '00000001');
    expect(dataFrame(0x7fffffff, Buffer.from('x'), true).toString('hex')).toBe('7fffffff01000001' + '78');
    expect(goAwayFrame(5).toString('hex')).toBe('8003000700000008' + '00000005' + '00000000');
  });
});

describe('SPDY/3 header blocks', () => {
  it('round-trips blocks through one zlib stream each way, names lower-cased', async () => {
    const c = new HeaderCompressor();
    const d = new HeaderDecompressor();
    for (let i = 0; i < 3; i++) {
      const block = await c.compress({ streamType: 'data', port: '8080', requestID: String(i) });
      expect(await d.decompress(block)).toEqual({ streamtype: 'data', port: '8080', requestid: String(i) });
    }
    // later blocks lean on the earlier ones: a fresh decompressor cannot read one alone
    const later = await c.compress({ port: '1' });
    await expect(new HeaderDecompressor().decompress(later)).rejects.toThrow();
    c.close();
    d.close();
  });

  it('joins a name\'s several values and refuses a truncated block', () => {
    const block = encodeHeaderPairs({ a: 'x\0y' });
    expect(decodeHeaderPairs(block)).toEqual({ a: 'x, y' });
    expect(() => decodeHeaderPairs(block.subarray(0, block.length - 1))).toThrow('truncated');
  });
});

describe('SpdySession (the server end)', () => {
  it('replies to a new stream, carries data both ways and half-closes with FIN', async () => {
    const h = harness();
    await h.open(1, { streamType: 'data' });
    await h.settle();
    const [reply] = h.ofType(FrameType.SYN_REPLY);
    expect(payloadStreamId(reply.payload)).toBe(1);
    expect(await h.inflate.decompress(reply.payload.subarray(SYN_REPLY_HEADERS_AT))).toEqual({});
    const s = h.streams[0];
    expect(s.headers).toEqual({ streamtype: 'data' });
    const got: Buffer[] = [];
    s.on('data', (b: Buffer) => got.push(b));
    const ended = new Promise((r) => s.once('end', r));
    h.session.receive(Buffer.concat([dataFrame(1, Buffer.from('abc')), dataFrame(1, Buffer.from('def'), true)]));
    await ended;
    expect(Buffer.concat(got).toString()).toBe('abcdef');
    s.end(Buffer.alloc(70_000, 1));
    await h.settle();
    const out = h.dataFor(1);
    expect(out.map((f) => f.data.length)).toEqual([32768, 32768, 70_000 - 65536, 0]); // split, then an empty FIN
    expect(out.at(-1)!.flags).toBe(FLAG_FIN);
    expect(h.ofType(FrameType.RST_STREAM)).toEqual([]); // both halves closed: no reset
  });

  it('echoes the client\'s pings, ignores flow control frames, drops a reset stream', async () => {
    const h = harness();
    h.session.receive(Buffer.concat([pingFrame(3), pingFrame(4), settingsFrame([{ id: 7, value: 65536 }]), windowUpdateFrame(0, 1000)]));
    await h.open(1, {});
    await h.settle();
    expect(h.ofType(FrameType.PING).map((f) => f.payload.readUInt32BE(0))).toEqual([3]);
    const closed = new Promise((r) => h.streams[0].once('close', r));
    h.session.receive(rstStreamFrame(1, RstStatus.CANCEL));
    await closed;
    expect(h.ofType(FrameType.RST_STREAM)).toEqual([]); // no reset answered to a reset
  });

  it('resets a stream id a client may not use, and goes away on a wrong version', async () => {
    const h = harness();
    await h.open(2, {});
    await h.settle();
    expect(h.ofType(FrameType.RST_STREAM).map((f) => [payloadStreamId(f.payload), f.payload.readUInt32BE(4)])).toEqual([[2, RstStatus.PROTOCOL_ERROR]]);
    expect(h.streams).toEqual([]);
    const v2 = pingFrame(1);
    v2.writeUInt16BE(0x8002, 0);
    h.session.receive(v2);
    await h.settle();
    expect(h.ofType(FrameType.GOAWAY)).toHaveLength(1);
    expect(h.isClosed()).toBe(true);
  });

  it('a stream opened with FIN ends at once; the session closing destroys open streams', async () => {
    const h = harness();
    await h.open(1, {}, FLAG_FIN);
    await h.open(3, {});
    await h.settle();
    const [done, open] = h.streams;
    const ended = new Promise((r) => done.once('end', r));
    done.resume();
    await ended;
    h.session.close();
    expect(open.destroyed).toBe(true);
    expect(h.isClosed()).toBe(true);
  });
});
