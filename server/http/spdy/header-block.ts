/**
 * SPDY/3 header blocks: a count of name/value pairs, each a 32-bit length and bytes (names in lower
 * case, several values of one name joined by NUL), compressed with zlib primed by the SPDY
 * dictionary. Each direction of a session is one zlib stream: every block is a sync-flushed piece
 * of it, so a codec lives as long as its session and blocks must pass through it in wire order.
 */
import { constants, createDeflate, createInflate, type Deflate, type Inflate } from 'node:zlib';
import { SPDY3_HEADER_DICTIONARY } from './dictionary';

export type SpdyHeaders = Record<string, string>;

/**
 * Runs one piece through a long-lived zlib stream and answers its sync-flushed output. Calls are
 * chained: each piece goes in after the previous one's output is out.
 */
class FlushedZlib {
  private chain: Promise<unknown> = Promise.resolve();
  constructor(private readonly z: Deflate | Inflate, private readonly maxOutput: number) {}
  run(chunk: Buffer): Promise<Buffer> {
    const next = this.chain.then(() => new Promise<Buffer>((resolve, reject) => {
      const fail = (err: Error) => reject(err);
      this.z.once('error', fail);
      this.z.write(chunk);
      this.z.flush(constants.Z_SYNC_FLUSH, () => {
        this.z.off('error', fail);
        const parts: Buffer[] = [];
        let size = 0;
        for (let b = this.z.read() as Buffer | null; b !== null; b = this.z.read() as Buffer | null) { parts.push(b); size += b.length; }
        if (size > this.maxOutput) return reject(new Error(`SPDY header block larger than ${this.maxOutput} bytes`));
        resolve(Buffer.concat(parts));
      });
    }));
    this.chain = next.catch(() => undefined);
    return next;
  }
  close(): void { this.z.destroy(); }
}

/** the most a peer's header block may expand to: kube's stream headers are a few dozen bytes */
const MAX_HEADER_BLOCK = 64 * 1024;

export function encodeHeaderPairs(headers: SpdyHeaders): Buffer {
  const parts: Buffer[] = [];
  const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
  const entries = Object.entries(headers);
  parts.push(u32(entries.length));
  for (const [name, value] of entries) {
    const n = Buffer.from(name.toLowerCase(), 'utf8');
    const v = Buffer.from(value, 'utf8');
    parts.push(u32(n.length), n, u32(v.length), v);
  }
  return Buffer.concat(parts);
}

/** the pairs of a decompressed block; names lower-cased, a name's several values joined by ", " */
export function decodeHeaderPairs(block: Buffer): SpdyHeaders {
  const out: SpdyHeaders = {};
  let at = 0;
  const take = (): string => {
    if (at + 4 > block.length) throw new Error('truncated SPDY header block');
    const len = block.readUInt32BE(at);
    at += 4;
    if (at + len > block.length) throw new Error('truncated SPDY header block');
    const s = block.subarray(at, at + len).toString('utf8');
    at += len;
    return s;
  };
  if (block.length < 4) throw new Error('truncated SPDY header block');
  const count = block.readUInt32BE(0);
  at = 4;
  for (let i = 0; i < count; i++) {
    const name = take().toLowerCase();
    out[name] = take().split('\0').join(', ');
  }
  return out;
}

export class HeaderCompressor {
  private readonly z = new FlushedZlib(createDeflate({ dictionary: SPDY3_HEADER_DICTIONARY }), Infinity);
  compress(headers: SpdyHeaders): Promise<Buffer> {
    return this.z.run(encodeHeaderPairs(headers));
  }
  close(): void { this.z.close(); }
}

export class HeaderDecompressor {
  private readonly z = new FlushedZlib(createInflate({ dictionary: SPDY3_HEADER_DICTIONARY }), MAX_HEADER_BLOCK);
  async decompress(compressed: Buffer): Promise<SpdyHeaders> {
    return decodeHeaderPairs(await this.z.run(compressed));
  }
  close(): void { this.z.close(); }
}
