/**
 * A file writer that leaves holes where the data is zero (as `qemu-img convert` does), so an
 * imported raw image takes only the space its data needs and the write costs only the data.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

const BLOCK = 64 * 1024;

const ZERO = Buffer.alloc(BLOCK);

/** native memcmp against a block of zeros */
function isZero(buf: Buffer, start: number, end: number): boolean {
  return buf.compare(ZERO, 0, end - start, start, end) === 0;
}

export class SparseFileWriter extends Writable {
  private fh?: FileHandle;
  private pos = 0;

  /** `onChunk`: sees every chunk before it is written (counting, hashing) */
  constructor(private readonly path: string, private readonly onChunk?: (chunk: Buffer) => void) {
    super({ highWaterMark: 4 * 1024 * 1024 });
  }

  override _construct(cb: (err?: Error | null) => void): void {
    open(this.path, 'w').then((fh) => { this.fh = fh; cb(); }, cb);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.writeChunk(chunk).then(() => cb(), cb);
  }

  /** what queued while a write was in flight goes down as one buffer: fewer, larger writes */
  override _writev(chunks: { chunk: Buffer }[], cb: (err?: Error | null) => void): void {
    for (const c of chunks) this.onChunk?.(c.chunk);
    const buf = chunks.length === 1 ? chunks[0].chunk : Buffer.concat(chunks.map((c) => c.chunk));
    this.writeBlocks(buf).then(() => cb(), cb);
  }

  private async writeChunk(chunk: Buffer): Promise<void> {
    this.onChunk?.(chunk);
    await this.writeBlocks(chunk);
  }

  private async writeBlocks(chunk: Buffer): Promise<void> {
    let runStart = -1;
    for (let off = 0; off < chunk.length; off += BLOCK) {
      const end = Math.min(off + BLOCK, chunk.length);
      if (isZero(chunk, off, end)) {
        if (runStart >= 0) { await this.fh!.write(chunk, runStart, off - runStart, this.pos + runStart); runStart = -1; }
      } else if (runStart < 0) runStart = off;
    }
    if (runStart >= 0) await this.fh!.write(chunk, runStart, chunk.length - runStart, this.pos + runStart);
    this.pos += chunk.length;
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.fh!.truncate(this.pos).then(() => this.fh!.close()).then(() => cb(), cb);
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    if (!this.fh) return cb(err);
    this.fh.close().then(() => cb(err), () => cb(err));
  }
}
