/**
 * A static file server that serves byte ranges (as nginx, S3 and most image mirrors do), for the
 * storage bench's ranged-import figure. Python's http.server, the bench's other source, ignores
 * `Range`. Usage: node --import tsx bench/range-file-server.ts DIR PORT
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const [dir, port] = [process.argv[2]!, Number(process.argv[3])];
createServer((req, res) => {
  const file = join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new Error('not a file');
    size = st.size;
  } catch {
    res.writeHead(404).end();
    return;
  }
  const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
  const start = m ? Number(m[1]) : 0;
  const end = m?.[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  const headers = { 'accept-ranges': 'bytes', 'content-length': String(end - start + 1) };
  res.writeHead(m ? 206 : 200, m ? { ...headers, 'content-range': `bytes ${start}-${end}/${size}` } : headers);
  if (req.method === 'HEAD') return void res.end();
  createReadStream(file, { start, end, highWaterMark: 1 << 20 }).pipe(res);
}).listen(port, '127.0.0.1');
