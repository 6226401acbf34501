import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:https';
import { fileURLToPath } from 'node:url';

const RUN_SERVER = fileURLToPath(new URL('./run-server.ts', import.meta.url));

export interface ChildServer { proc: ChildProcess; url: string; port: number; caPem: string; adminToken: string }

/** starts the API server in its own process and waits for its ready line; nodeArgs e.g. --cpu-prof */
export function startChildServer(dataDir: string, port?: number, nodeArgs: string[] = []): Promise<ChildServer> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', RUN_SERVER, dataDir, String(port ?? 0)], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, KV_LOG_LEVEL: 'warn' } });
    let buf = '';
    proc.stdout!.on('data', (d) => {
      buf += d;
      const line = buf.split('\n').find((l) => l.startsWith('{"url"'));
      if (line) resolve({ proc, ...JSON.parse(line) });
    });
    proc.on('exit', (code) => reject(new Error(`api server exited with ${code}`)));
  });
}

/** a keep-alive JSON client for a child server */
export function jsonClient(s: { url: string; caPem: string; adminToken: string }, maxSockets = 16) {
  const agent = new Agent({ keepAlive: true, ca: s.caPem, maxSockets });
  const call = (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { Authorization: `Bearer ${s.adminToken}`, Accept: 'application/json' };
    if (payload) { headers['Content-Type'] = 'application/json'; headers['Content-Length'] = String(Buffer.byteLength(payload)); }
    const req = request(`${s.url}${path}`, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
  return { call, agent, close: () => agent.destroy() };
}
