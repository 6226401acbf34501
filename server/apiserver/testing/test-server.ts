import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../server';
import { createMemoryStore } from '../store/memory-store';

/** A real API server on a random port with its own temp data dir, plus a small HTTPS client. */
export interface TestServer {
  srv: ApiServer;
  dataDir: string;
  call(method: string, path: string, body?: unknown, opts?: CallOptions): Promise<CallResult>;
  /** opens a watch and collects its events until stopped */
  watch(path: string, opts?: { token?: string; accept?: string }): Promise<WatchHandle>;
  close(): Promise<void>;
}

export interface CallOptions { contentType?: string; token?: string | null; accept?: string }
export interface CallResult { status: number; body: any; headers: Record<string, unknown> }
export interface WatchHandle { events: WatchEvent[]; ended: () => boolean; stop: () => void }
/** one line of a JSON watch stream: the object is the watched kind's, or a Status for ERROR */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: { metadata: { name?: string; resourceVersion?: string; [field: string]: unknown }; [field: string]: unknown };
}

export async function startTestServer(opts: Partial<ApiServerOptions> & { memory?: boolean; dataDir?: string } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'kv-apiserver-'));
  const srv = await startApiServer({
    dataDir, port: opts.port ?? 0, crdDir: opts.crdDir, installCRDs: opts.installCRDs, bookmarkIntervalMs: opts.bookmarkIntervalMs, nodeLeaseTimeoutMs: opts.nodeLeaseTimeoutMs, eventTTLMs: opts.eventTTLMs,
    storeFactory: opts.storeFactory ?? (opts.memory === false ? undefined : () => createMemoryStore()),
  });
  const agent = new Agent({ keepAlive: true, ca: srv.caPem });
  const headers = (o: CallOptions, body?: unknown) => {
    const h: Record<string, string> = { Accept: o.accept ?? 'application/json' };
    const token = o.token === undefined ? srv.adminToken : o.token;
    if (token) h.Authorization = `Bearer ${token}`;
    if (body !== undefined) h['Content-Type'] = o.contentType ?? 'application/json';
    return h;
  };
  const call = (method: string, path: string, body?: unknown, o: CallOptions = {}) => new Promise<CallResult>((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const h = headers(o, body);
    if (payload !== undefined) h['Content-Length'] = String(Buffer.byteLength(payload));
    const req = httpsRequest(`${srv.url}${path}`, { method, agent, headers: h }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try { parsed = JSON.parse(text); } catch { /* plain text */ }
        resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
  const watch = (path: string, o: { token?: string; accept?: string } = {}) => new Promise<WatchHandle>((resolve, reject) => {
    const events: WatchEvent[] = [];
    let ended = false;
    const req = httpsRequest(`${srv.url}${path}`, { method: 'GET', agent: new Agent({ ca: srv.caPem }), headers: headers(o) }, (res) => {
      let buf = '';
      res.on('data', (c: Buffer) => {
        buf += c.toString('utf8');
        let i;
        while ((i = buf.indexOf('\n')) >= 0) { events.push(JSON.parse(buf.slice(0, i))); buf = buf.slice(i + 1); }
      });
      res.on('end', () => { ended = true; });
      res.on('close', () => { ended = true; });
      resolve({ events, ended: () => ended, stop: () => req.destroy() });
    });
    req.on('error', (err) => { if (!ended) reject(err); });
    req.end();
  });
  return {
    srv, dataDir, call, watch,
    async close() {
      agent.destroy();
      await srv.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** polls until cond() is truthy or the bound passes */
export async function waitFor<T>(cond: () => T | Promise<T>, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
