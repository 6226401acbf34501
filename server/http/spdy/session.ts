/**
 * The server end of a SPDY/3.1 session as kube's streaming protocols use it (spdystream): the
 * client opens streams with SYN_STREAM and headers, the server answers each with an empty
 * SYN_REPLY, both sides send DATA and half-close with FIN; RST_STREAM drops a stream, PING is
 * echoed, GOAWAY ends the session. Like spdystream, no flow control: WINDOW_UPDATE and SETTINGS
 * are read and ignored. Each stream is a Duplex (its writable side becomes DATA frames).
 */
import { Duplex } from 'node:stream';
import {
  dataFrame, FLAG_FIN, FrameReader, FrameType, goAwayFrame, payloadStreamId, pingFrame, RstStatus, rstStreamFrame,
  SPDY_VERSION, SYN_STREAM_HEADERS_AT, synReplyFrame, type SpdyFrame,
} from './frames';
import { HeaderCompressor, HeaderDecompressor, type SpdyHeaders } from './header-block';

/** DATA frames this end sends carry at most this much */
const MAX_DATA_PAYLOAD = 32 * 1024;
const GOAWAY_PROTOCOL_ERROR = 1;

export interface SpdySink {
  /** writes one frame's bytes; resolves when the transport took them */
  write(frame: Buffer): Promise<void>;
  /** ends the transport */
  close(): void;
}

export class SpdyStream extends Duplex {
  private remoteEnded = false;
  private localEnded = false;
  constructor(readonly id: number, readonly headers: SpdyHeaders, private readonly session: SpdySession) {
    super();
  }
  override _read(): void { /* no flow control: data is pushed as it arrives */ }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    const sends: Promise<void>[] = [];
    for (let at = 0; at < chunk.length; at += MAX_DATA_PAYLOAD) sends.push(this.session.send(dataFrame(this.id, chunk.subarray(at, at + MAX_DATA_PAYLOAD))));
    Promise.all(sends).then(() => cb(), (err: Error) => cb(err));
  }
  override _final(cb: (err?: Error | null) => void): void {
    this.localEnded = true;
    this.session.send(dataFrame(this.id, Buffer.alloc(0), true)).then(() => { cb(); this.settle(); }, (err: Error) => cb(err));
  }
  override _destroy(err: Error | null, cb: (err: Error | null) => void): void {
    if (!(this.localEnded && this.remoteEnded)) void this.session.send(rstStreamFrame(this.id, RstStatus.CANCEL)).catch(() => undefined);
    this.session.forget(this.id);
    cb(err);
  }
  /** the peer's DATA for this stream */
  receive(data: Buffer, fin: boolean): void {
    if (this.remoteEnded) return;
    if (data.length) this.push(data);
    if (fin) {
      this.remoteEnded = true;
      this.push(null);
      this.settle();
    }
  }
  /** the peer reset the stream: drop it without answering */
  reset(): void {
    this.localEnded = this.remoteEnded = true;
    this.destroy();
  }
  private settle(): void {
    if (this.localEnded && this.remoteEnded) this.session.forget(this.id);
  }
}

export class SpdySession {
  private readonly reader = new FrameReader();
  private readonly inflate = new HeaderDecompressor();
  private readonly deflate = new HeaderCompressor();
  private readonly streams = new Map<number, SpdyStream>();
  private inChain: Promise<void> = Promise.resolve();
  private outChain: Promise<void> = Promise.resolve();
  private lastStreamId = 0;
  private closed = false;

  /** onStream sees each new stream once its reply is queued; it may destroy() it to refuse */
  constructor(private readonly sink: SpdySink, private readonly onStream: (stream: SpdyStream) => void) {}

  /** bytes from the transport, in order */
  receive(chunk: Buffer): void {
    if (this.closed) return;
    let frames: SpdyFrame[];
    try {
      frames = this.reader.push(chunk);
    } catch {
      return this.fail();
    }
    for (const f of frames) this.inChain = this.inChain.then(() => this.handle(f)).catch(() => this.fail());
  }

  /** queues frame bytes behind those already queued */
  send(frame: Buffer | Promise<Buffer>): Promise<void> {
    const next = this.outChain.then(async () => {
      if (this.closed) throw new Error('SPDY session closed');
      await this.sink.write(await frame);
    });
    this.outChain = next.catch(() => undefined);
    return next;
  }

  forget(id: number): void { this.streams.delete(id); }

  /** the transport ended: every stream ends with it */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.streams.values()) s.destroy();
    this.streams.clear();
    this.inflate.close();
    this.deflate.close();
    this.sink.close();
  }

  private fail(): void {
    if (this.closed) return;
    void this.send(goAwayFrame(this.lastStreamId, GOAWAY_PROTOCOL_ERROR)).catch(() => undefined).finally(() => this.close());
  }

  private async handle(f: SpdyFrame): Promise<void> {
    if (this.closed) return;
    if (f.kind === 'data') return this.streams.get(f.streamId)?.receive(f.data, (f.flags & FLAG_FIN) !== 0);
    if (f.version !== SPDY_VERSION) return this.fail();
    switch (f.type) {
      case FrameType.SYN_STREAM: return this.openStream(f.payload, f.flags);
      case FrameType.RST_STREAM: return this.streams.get(payloadStreamId(f.payload))?.reset();
      case FrameType.PING: {
        // the client's pings have odd ids; ours (none sent) would be even
        if (f.payload.length >= 4 && f.payload.readUInt32BE(0) % 2 === 1) await this.send(pingFrame(f.payload.readUInt32BE(0)));
        return;
      }
      case FrameType.GOAWAY: return this.close();
      default: return; // SYN_REPLY (we open no streams), HEADERS, SETTINGS, WINDOW_UPDATE
    }
  }

  private async openStream(payload: Buffer, flags: number): Promise<void> {
    if (payload.length < SYN_STREAM_HEADERS_AT) return this.fail();
    const id = payloadStreamId(payload);
    // a client's stream ids are odd and rise
    if (id % 2 === 0 || id <= this.lastStreamId) {
      await this.send(rstStreamFrame(id, RstStatus.PROTOCOL_ERROR));
      return;
    }
    this.lastStreamId = id;
    const headers = await this.inflate.decompress(payload.subarray(SYN_STREAM_HEADERS_AT));
    const stream = new SpdyStream(id, headers, this);
    this.streams.set(id, stream);
    // the reply is queued before anything the handler writes on the stream
    const replied = this.send(this.deflate.compress({}).then((block) => synReplyFrame(id, block)));
    this.onStream(stream);
    if (flags & FLAG_FIN) stream.receive(Buffer.alloc(0), true);
    await replied;
  }
}
