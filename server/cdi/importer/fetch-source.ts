/**
 * Download an http(s) source into a scratch file: the checksum over the bytes as served, `.gz`
 * and `.xz` unpacked on the way (by name or magic), progress by Content-Length. A non-2xx answer
 * fails with the status, as CDI reports it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Duplex, PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { ProgressFile } from './progress';

export class ImportError extends Error {}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const XZ_MAGIC = Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);

/** Counts and hashes the served bytes, passing them through. */
class Meter extends Transform {
  bytes = 0;
  constructor(private readonly hash: ReturnType<typeof createHash> | undefined, private readonly onBytes: (n: number) => void) { super(); }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    this.hash?.update(chunk);
    this.onBytes(this.bytes);
    cb(null, chunk);
  }
}

/** Looks at the first bytes, then unpacks gzip/xz or passes through. */
function decompressor(url: string, first: Buffer): Duplex {
  const path = new URL(url).pathname;
  if (path.endsWith('.gz') || first.subarray(0, 2).equals(GZIP_MAGIC)) return createGunzip();
  if (path.endsWith('.xz') || first.subarray(0, 6).equals(XZ_MAGIC)) {
    const xz = spawn('xz', ['-dc'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const duplex = Duplex.from({ writable: xz.stdin, readable: xz.stdout });
    let err = '';
    xz.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    xz.on('close', (code) => { if (code !== 0) duplex.destroy(new ImportError(`xz: ${err.trim() || `exit ${code}`}`)); });
    return duplex;
  }
  return new PassThrough();
}

export interface Fetched { bytes: number; digest?: string }

export async function fetchToFile(url: string, file: string, opts: { checksumAlgorithm?: string; progress?: ProgressFile; signal?: AbortSignal }): Promise<Fetched> {
  let res: Response;
  try {
    res = await fetch(url, { signal: opts.signal, redirect: 'follow' });
  } catch (err) {
    throw new ImportError(`unable to connect to http data source: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`);
  }
  if (!res.ok || !res.body) throw new ImportError(`expected status code 200, got ${res.status}. Status: ${res.status} ${res.statusText}`);
  const total = Number(res.headers.get('content-length')) || undefined;
  const hash = opts.checksumAlgorithm ? createHash(opts.checksumAlgorithm) : undefined;
  const meter = new Meter(hash, (n) => opts.progress?.report(n, total));
  const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
  const first = await peek(body);
  const unpack = decompressor(url, first.head);
  await pipeline(first.stream, meter, unpack, createWriteStream(file));
  return { bytes: meter.bytes, digest: hash?.digest('hex') };
}

/** The first chunk of a stream, and a stream that still yields it. */
async function peek(stream: Readable): Promise<{ head: Buffer; stream: Readable }> {
  const it = stream[Symbol.asyncIterator]();
  const first = await it.next();
  const head = first.done ? Buffer.alloc(0) : Buffer.from(first.value as Uint8Array);
  async function* rest() {
    if (head.length) yield head;
    for (let r = await it.next(); !r.done; r = await it.next()) yield Buffer.from(r.value as Uint8Array);
  }
  return { head, stream: Readable.from(rest()) };
}
