/**
 * virt-handler's HTTP endpoint for virt-api (KubeVirt serves these on :8186 with mTLS; we listen on
 * loopback HTTP and require `Authorization: Bearer <token>`, the token being in
 * `<DIR>/nodes/<node>/handler.token`, 0600):
 *   GET  /v1/namespaces/{ns}/virtualmachineinstances/{name}/vnc|console   WebSocket ↔ vnc.sock / serial.sock
 *   PUT  …/pause | …/unpause | …/softreboot | …/freeze/{seconds} | …/unfreeze  launcher commands
 *   GET  …/guestosinfo                                                    guest agent info
 *   GET  …/portforward/{port}[/tcp]                                     WebSocket ↔ the guest's TCP port (via the launcher)
 *   GET  …/screenshot                                                     PNG of the screen (QMP screendump)
 *   GET  /metrics (Prometheus, no token), GET /healthz
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { Phase } from './constants';
import { HttpError, rejectUpgrade, sendError } from './http-errors';
import { podFile } from './pod-dir';
import { connectGuestSocket, StreamSessions, type StreamKind } from './stream-sessions';
import type { VMIHandler } from './vmi-handler';
import { runFreeze, runVMIAction, type VMIAction } from './vmi-actions';
import { PNG_CONTENT_TYPE, takeScreenshot } from './screenshot';
import { requestPathname } from '../http/request-target';
import { openGuestPort, parsePortForward, pumpDatagrams, pumpPortForward } from './port-forward';

export interface HandlerServerOptions {
  handler: Pick<VMIHandler, 'lookup' | 'enqueue' | 'connections'>;
  token: string;
  metrics: () => Promise<{ contentType: string; body: string }>;
}

const ROUTE = /^\/v1\/namespaces\/([a-z0-9-]+)\/virtualmachineinstances\/([a-z0-9.-]+)\/([a-z]+(?:\/\d+(?:\/[a-z]+)?)?)$/;
const STREAMS: Record<StreamKind, 'vncSocket' | 'serialSocket'> = { vnc: 'vncSocket', console: 'serialSocket' };
const ACTIONS: Record<string, { method: string; action: VMIAction }> = {
  pause: { method: 'PUT', action: 'pause' },
  unpause: { method: 'PUT', action: 'unpause' },
  softreboot: { method: 'PUT', action: 'softReboot' },
  guestosinfo: { method: 'GET', action: 'guestInfo' },
  userlist: { method: 'GET', action: 'guestUsers' },
  filesystemlist: { method: 'GET', action: 'guestFilesystems' },
};

function checkToken(req: IncomingMessage, token: string): void {
  const got = Buffer.from(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
  const want = Buffer.from(token);
  if (got.length !== want.length || !timingSafeEqual(got, want)) throw new HttpError(401, 'missing or wrong bearer token');
}

function parseRoute(url: string | undefined): { namespace: string; name: string; sub: string } {
  const m = ROUTE.exec(requestPathname(url) ?? '');
  if (!m) throw new HttpError(404, 'not found');
  return { namespace: m[1], name: m[2], sub: m[3] };
}

function findRunning(opts: HandlerServerOptions, namespace: string, name: string) {
  const found = opts.handler.lookup(namespace, name);
  if (!found) throw new HttpError(404, `virtualmachineinstance ${namespace}/${name} is not on this node`);
  if (found.vmi.status?.phase !== Phase.Running) throw new HttpError(409, 'VMI is not running');
  return found;
}

async function handleRequest(opts: HandlerServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = requestPathname(req.url);
  if (path === undefined) throw new HttpError(400, 'invalid request target');
  if (path === '/healthz') return void res.writeHead(200).end('ok');
  if (path === '/metrics') {
    const m = await opts.metrics();
    return void res.writeHead(200, { 'content-type': m.contentType }).end(m.body);
  }
  checkToken(req, opts.token);
  const { namespace, name, sub } = parseRoute(req.url);
  if (sub === 'screenshot' && req.method === 'GET') {
    const png = await takeScreenshot(opts.handler.connections, findRunning(opts, namespace, name).podDir, `${namespace}/${name}`);
    return void res.writeHead(200, { 'content-type': PNG_CONTENT_TYPE }).end(png);
  }
  const freeze = /^freeze\/(\d+)$/.exec(sub);
  if (freeze || sub === 'unfreeze') {
    if (req.method !== 'PUT') throw new HttpError(405, `${req.method} not allowed on ${sub}`);
    await runFreeze(opts.handler.connections, findRunning(opts, namespace, name).podDir, `${namespace}/${name}`, freeze ? Number(freeze[1]) : undefined);
    opts.handler.enqueue(`${namespace}/${name}`);
    return void res.writeHead(200).end();
  }
  const route = ACTIONS[sub];
  if (!route) throw new HttpError(404, `unknown subresource ${sub}`);
  if (req.method !== route.method) throw new HttpError(405, `${req.method} not allowed on ${sub}`);
  const { podDir } = findRunning(opts, namespace, name);
  const result = await runVMIAction(opts.handler.connections, podDir, `${namespace}/${name}`, route.action);
  opts.handler.enqueue(`${namespace}/${name}`);
  res.writeHead(200, { 'content-type': 'application/json' }).end(result === undefined ? '' : JSON.stringify(result));
}

interface Streams { opts: HandlerServerOptions; wss: WebSocketServer; sessions: StreamSessions }

async function handleUpgrade({ opts, wss, sessions }: Streams, req: IncomingMessage, socket: Duplex, head: Buffer) {
  checkToken(req, opts.token);
  const { namespace, name, sub } = parseRoute(req.url);
  const forward = parsePortForward(sub);
  if (forward) {
    const guest = await openGuestPort(podFile(findRunning(opts, namespace, name).podDir, 'portForwardSocket'), forward.port, forward.protocol);
    socket.once('close', () => guest.destroy());
    const pump = forward.protocol === 'udp' ? pumpDatagrams : pumpPortForward;
    return void wss.handleUpgrade(req, socket, head, (ws) => pump(ws, guest));
  }
  if (sub !== 'vnc' && sub !== 'console') throw new HttpError(404, `no stream ${sub}`);
  const { vmi, podDir } = findRunning(opts, namespace, name);
  const path = podFile(podDir, STREAMS[sub]);
  if (!existsSync(path)) throw new HttpError(503, `${sub} socket of ${namespace}/${name} is not available`);
  const guest = await connectGuestSocket(path).catch((err) => { throw new HttpError(503, `cannot reach ${sub} of ${namespace}/${name}: ${err.message}`); });
  wss.handleUpgrade(req, socket, head, (ws) => sessions.attach(`${vmi.metadata.uid}/${sub}`, ws, guest));
}

export function createHandlerServer(opts: HandlerServerOptions): { server: Server; sessions: StreamSessions } {
  const sessions = new StreamSessions();
  const wss = new WebSocketServer({ noServer: true });
  const server = createServer((req, res) => { handleRequest(opts, req, res).catch((err) => sendError(res, err)); });
  // virt-api's agent closes idle connections first (it reads this hint): no close racing a reuse
  server.keepAliveTimeout = 65_000;
  server.on('upgrade', (req, socket, head) => {
    handleUpgrade({ opts, wss, sessions }, req, socket, head).catch((err) => rejectUpgrade(socket, err));
  });
  server.on('close', () => sessions.closeAll());
  return { server, sessions };
}
