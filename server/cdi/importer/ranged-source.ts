/**
 * An http(s) source qemu-img can read where it is: the server serves byte ranges and the bytes are
 * not compressed. Then qemu-img's curl driver (Debian's qemu-block-extra) converts straight from the
 * URL in one pass — CDI's nbdkit-curl path — instead of the importer first downloading the whole
 * file into a scratch file and converting it in a second pass. Anything unexpected (no ranges, a
 * redirect loop, an error status, gzip/xz bytes, no curl driver) answers undefined, and the
 * importer downloads as before, which reports the source's errors as CDI words them.
 */
import { execFile } from 'node:child_process';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MAX_REDIRECTS = 5;
const PROBE_TIMEOUT_MS = 10_000;
/** enough for the gzip and xz magic numbers */
const PROBE_BYTES = 6;
const COMPRESSED_MAGIC = [Buffer.from([0x1f, 0x8b]), Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])];

let curlDriver: Promise<boolean> | undefined;

/** whether this qemu-img has the http/https protocol drivers (`qemu-img --help` lists them) */
export function hasCurlDriver(): Promise<boolean> {
  curlDriver ??= run('qemu-img', ['--help'], { maxBuffer: 1 << 20 }).then(
    ({ stdout }) => / http /.test(` ${/Supported formats:(.*)/.exec(stdout)?.[1] ?? ''} `),
    () => false,
  );
  return curlDriver;
}

/** a GET of the first bytes (or a HEAD), following redirects */
function ask(url: string, method: 'GET' | 'HEAD', redirects = 0): Promise<{ url: string; res: IncomingMessage } | undefined> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve(undefined);
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return resolve(undefined);
    const headers = method === 'GET' ? { range: `bytes=0-${PROBE_BYTES - 1}` } : {};
    const req = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, { method, headers, timeout: PROBE_TIMEOUT_MS }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location && redirects < MAX_REDIRECTS) {
        res.resume();
        return resolve(ask(new URL(res.headers.location, target).toString(), method, redirects + 1));
      }
      resolve({ url: target.toString(), res });
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

function readBody(res: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let n = 0;
    res.on('data', (c: Buffer) => {
      chunks.push(c);
      n += c.length;
      if (n > limit) res.destroy();
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('close', () => resolve(Buffer.concat(chunks)));
    res.on('error', () => resolve(Buffer.alloc(0)));
  });
}

/** qemu's JSON filename for the URL when qemu-img may read it in place, else undefined */
export async function rangedSource(url: string): Promise<string | undefined> {
  if (/\.(gz|xz)$/.test(safePath(url)) || !(await hasCurlDriver())) return undefined;
  const probe = await ask(url, 'GET');
  if (!probe) return undefined;
  const { res } = probe;
  const total = /^bytes 0-\d+\/(\d+)$/.exec(String(res.headers['content-range'] ?? ''))?.[1];
  if (res.statusCode !== 206 || !total) {
    res.destroy();
    return undefined;
  }
  const head = await readBody(res, PROBE_BYTES);
  if (COMPRESSED_MAGIC.some((m) => head.subarray(0, m.length).equals(m))) return undefined;
  // qemu's curl driver learns the size with a HEAD and insists that it names byte ranges
  const about = await ask(probe.url, 'HEAD');
  about?.res.resume();
  if (about?.res.statusCode !== 200 || about.res.headers['accept-ranges'] !== 'bytes' || about.res.headers['content-length'] !== total) return undefined;
  const driver = new URL(probe.url).protocol.slice(0, -1);
  return `json:${JSON.stringify({ file: { driver, url: probe.url, timeout: 60 } })}`;
}
