/**
 * Tests: the console's own HTTP routes (Next's route handlers for /login, /api/session, /api/kube)
 * and its WebSocket routes on one plain node:http server, without a Next build. The handlers are
 * the real ones; only Next's router is left out.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as login from '../../../app/login/route';
import * as session from '../../../app/api/session/route';
import * as kube from '../../../app/api/kube/[...path]/route';
import type { UpgradeHandler } from '../main';
import { registerConsole } from '../register';

type Handler = (req: Request) => Promise<Response>;

function routeOf(method: string, pathname: string): Handler | undefined {
  if (pathname === '/login' && method === 'GET') return login.GET;
  if (pathname === '/api/session') return ({ GET: session.GET, POST: session.POST, DELETE: session.DELETE } as Record<string, Handler | undefined>)[method];
  if (pathname.startsWith('/api/kube/')) {
    const path = pathname.slice('/api/kube/'.length).split('/').map(decodeURIComponent);
    return (req) => kube.GET(req, { params: Promise.resolve({ path }) });
  }
  return undefined;
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const body = chunks.length && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
  return new Request(origin + req.url, { method: req.method, headers, body });
}

export async function startConsoleRoutes(dataDir: string): Promise<{ origin: string; server: Server; close: () => Promise<void> }> {
  const routes: { prefix: string; handle: UpgradeHandler }[] = [];
  registerConsole((prefix, handle) => routes.push({ prefix, handle }), dataDir);
  let origin = '';
  const server = createServer((req, res) => {
    const handler = routeOf(req.method ?? 'GET', new URL(req.url ?? '/', 'http://x').pathname);
    if (!handler) return void res.writeHead(404).end();
    void toRequest(req, origin).then(handler).then(async (r) => {
      const headers: Record<string, string> = {};
      r.headers.forEach((v, k) => { headers[k] = v; });
      res.writeHead(r.status, headers).end(Buffer.from(await r.arrayBuffer()));
    }, (err: Error) => res.writeHead(500).end(err.message));
  });
  const upgraded = new Set<import('node:stream').Duplex>();
  server.on('upgrade', (req, socket, head) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    const r = routes.find((x) => req.url?.startsWith(x.prefix));
    if (r) r.handle(req, socket, head); else socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin, server,
    close: async () => {
      server.closeAllConnections();
      for (const s of upgraded) s.destroy(); // sockets handed to WebSocket routes are no longer the server's to close
      await new Promise((r) => server.close(r));
    },
  };
}
