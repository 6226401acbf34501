/**
 * Download an http(s) source into a scratch file: the checksum over the bytes as served, `.gz`
 * and `.xz` unpacked on the way (by name or magic), progress by Content-Length. A non-2xx answer
 * fails with the status, as CDI reports it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { Duplex, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { ProgressFile } from './progress';
import { SparseFileWriter } from './sparse-writer';

export class ImportError extends Error {}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const XZ_MAGIC = Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);

/** Sees the served bytes, passing them through. */
class Meter extends Transform {
  constructor(private readonly onChunk: (chunk: Buffer) => void) { super(); }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.onChunk(chunk);
    cb(null, chunk);
  }
}

/** Looks at the first bytes: the unpacker for gzip/xz, undefined when the bytes are the image. */
function decompressor(url: string, first: Buffer): Duplex | undefined {
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
  return undefined;
}

export interface Fetched { bytes: number; digest?: string }

const MAX_REDIRECTS = 5;

/** GET with node:http(s) (its streams are much faster than fetch's web streams), following redirects. */
function get(url: string, signal?: AbortSignal, redirects = 0): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return reject(new ImportError(`invalid URL ${JSON.stringify(url)}`));
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return reject(new ImportError(`unsupported URL scheme ${target.protocol}`));
    const req = (target.protocol === 'https:' ? httpsGet : httpGet)(target, { signal }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location && redirects < MAX_REDIRECTS) {
        res.resume();
        resolve(get(new URL(res.headers.location, target).toString(), signal, redirects + 1));
        return;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        reject(new ImportError(`expected status code 200, got ${status}. Status: ${status} ${res.statusMessage ?? ''}`.trim()));
        return;
      }
      resolve(res);
    });
    req.on('error', (err) => reject(new ImportError(`unable to connect to http data source: ${err.message}`)));
  });
}

export async function fetchToFile(url: string, file: string, opts: { checksumAlgorithm?: string; progress?: ProgressFile; signal?: AbortSignal }): Promise<Fetched> {
  const res = await get(url, opts.signal);
  const total = Number(res.headers['content-length']) || undefined;
  const hash = opts.checksumAlgorithm ? createHash(opts.checksumAlgorithm) : undefined;
  let bytes = 0;
  const count = (chunk: Buffer) => {
    bytes += chunk.length;
    hash?.update(chunk);
    opts.progress?.report(bytes, total);
  };
  const head = await peek(res);
  const unpack = decompressor(url, head);
  // every stream hop costs: the served bytes are counted where they are written, or before the unpacker
  if (unpack) await pipeline(res, new Meter(count), unpack, new SparseFileWriter(file));
  else await pipeline(res, new SparseFileWriter(file, count));
  if (total !== undefined && bytes !== total) throw new ImportError(`the transfer ended early: ${bytes} of ${total} bytes`);
  return { bytes, digest: hash?.digest('hex') };
}

/** The first chunk of a stream, put back so the stream still yields it. */
function peek(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      stream.pause();
      stream.off('end', onEnd);
      stream.unshift(chunk);
      resolve(chunk);
    };
    const onEnd = () => { stream.off('data', onData); resolve(Buffer.alloc(0)); };
    stream.once('data', onData);
    stream.once('end', onEnd);
    stream.once('error', reject);
  });
}
