/**
 * An HTTP server that Pods can reach: Pods on the embedded pod network cannot open host sockets
 * (docs/networking.md), so a test that wants an importer Pod to download from it runs it in its own
 * network namespace behind a veth, like a server elsewhere on the network. Serves the files of `dir`
 * by name (404 otherwise) on <address>:8080. Without root (no pod network) it listens on 127.0.0.1.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export interface NetnsHttpServer { base: string; stop(): void }

const SERVER = `
const http = require('node:http'), fs = require('node:fs'), path = require('node:path');
const dir = process.argv[1], host = process.argv[2];
http.createServer((req, res) => {
  const file = path.join(dir, path.basename(decodeURIComponent(req.url || '/')));
  fs.stat(file, (err, st) => {
    if (err || !st.isFile()) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-length': st.size });
    fs.createReadStream(file).pipe(res);
  });
}).listen(8080, host, () => process.stdout.write('listening\\n'));
`;

const ip = (args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

function waitListening(p: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    p.stdout!.once('data', () => resolve());
    p.once('exit', (code) => reject(new Error(`http server exited with ${code}`)));
  });
}

export async function startNetnsHttpServer(dir: string): Promise<NetnsHttpServer> {
  if (process.getuid?.() !== 0) {
    const p = spawn(process.execPath, ['-e', SERVER, dir, '127.0.0.1'], { stdio: ['ignore', 'pipe', 'inherit'] });
    await waitListening(p);
    return { base: 'http://127.0.0.1:8080', stop: () => p.kill() };
  }
  const tag = randomBytes(3).toString('hex');
  const netns = `kvt-http-${tag}`;
  const veth = `kvth${tag}`;
  const octet = 1 + (parseInt(tag.slice(0, 2), 16) % 250);
  const [hostAddr, nsAddr] = [`10.250.${octet}.1`, `10.250.${octet}.2`];
  ip(['netns', 'add', netns]);
  ip(['link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', netns]);
  ip(['addr', 'add', `${hostAddr}/30`, 'dev', veth]);
  ip(['link', 'set', veth, 'up']);
  ip(['-n', netns, 'addr', 'add', `${nsAddr}/30`, 'dev', 'eth0']);
  ip(['-n', netns, 'link', 'set', 'eth0', 'up']);
  ip(['-n', netns, 'link', 'set', 'lo', 'up']);
  ip(['-n', netns, 'route', 'add', 'default', 'via', hostAddr]);
  const p = spawn('ip', ['netns', 'exec', netns, process.execPath, '-e', SERVER, dir, nsAddr], { stdio: ['ignore', 'pipe', 'inherit'] });
  await waitListening(p);
  return {
    base: `http://${nsAddr}:8080`,
    stop: () => {
      p.kill();
      try { ip(['netns', 'del', netns]); } catch { /* gone */ }
      try { ip(['link', 'del', veth]); } catch { /* gone with the namespace */ }
    },
  };
}
