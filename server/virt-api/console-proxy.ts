/**
 * `vnc` and `console` WebSockets (subprotocol `plain.kubevirt.io`): authorize, check the Origin,
 * validate the VMI and dial its node's handler BEFORE upgrading the client, so every failure is an
 * HTTP status; then pump frames both ways. A new session takes over the old one (the handler closes
 * it with 4001); `preserveSession=true` refuses instead while a VNC session is open.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { ApiError, rejectUpgrade } from './api-error';
import { dialHandlerStream, resolveHandler } from './handler-client';
import { checkStream, type StreamKind } from './lifecycle/vmi-checks';
import type { Caller } from './request-auth';
import { getVMI, type SubresourceContext } from './subresource-context';
import type { SubresourcePath } from './subresource-path';

export const PLAIN_SUBPROTOCOL = 'plain.kubevirt.io';

/** Close codes a peer may not send (1005/1006/1015 are reserved for "no code"); map them to 1000/1011. */
function sendableCode(code: number): number {
  if (code === 1005) return 1000;
  if (code === 1006 || code === 1015) return 1011;
  return code;
}

/** A browser's Origin must be one of ours; non-browser clients send none. */
export function isOriginAllowed(origin: string | undefined, host: string | undefined, allowed: string[]): boolean {
  if (!origin) return true;
  let o: URL;
  try { o = new URL(origin); } catch { return false; }
  if (host && o.host === host) return true;
  return allowed.some((a) => a === origin || a === o.host);
}

const wss = new WebSocketServer({
  noServer: true,
  handleProtocols: (protocols) => (protocols.has(PLAIN_SUBPROTOCOL) ? PLAIN_SUBPROTOCOL : false),
});

function pump(client: WebSocket, upstream: WebSocket, onEnd: () => void): void {
  const closeBoth = (code: number, reason: Buffer) => {
    onEnd();
    for (const ws of [client, upstream]) {
      if (ws.readyState === WebSocket.OPEN) ws.close(sendableCode(code), reason.toString().slice(0, 120));
    }
  };
  client.on('message', (data, binary) => { if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary }); });
  upstream.on('message', (data, binary) => { if (client.readyState === WebSocket.OPEN) client.send(data, { binary }); });
  client.on('close', closeBoth);
  upstream.on('close', closeBoth);
  client.on('error', () => upstream.terminate());
  upstream.on('error', () => client.terminate());
}

export async function serveStream(ctx: SubresourceContext, caller: Caller, path: SubresourcePath, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  try {
    const kind = path.subresource as StreamKind;
    if (kind !== 'vnc' && kind !== 'console') throw new ApiError(404, 'NotFound', `no stream ${path.subresource}`);
    if (!isOriginAllowed(req.headers.origin, req.headers.host, ctx.allowedOrigins)) throw new ApiError(403, 'Forbidden', `origin ${req.headers.origin} is not allowed`);
    await ctx.authorizer.check(caller, { verb: 'get', namespace: path.namespace, resource: path.resource, subresource: kind, name: path.name });
    const vmi = await getVMI(ctx, path.namespace, path.name);
    checkStream(vmi, kind);
    const uid = vmi.metadata.uid ?? '';
    const preserve = new URL(req.url ?? '/', 'http://x').searchParams.get('preserveSession') === 'true';
    if (kind === 'vnc') ctx.vnc.checkPreserve(uid, path.name, preserve);
    const upstream = await dialHandlerStream(await resolveHandler(ctx.handlers, vmi), vmi, kind);
    const untrack = kind === 'vnc' ? ctx.vnc.track(uid) : () => undefined;
    let upgraded = false;
    socket.once('close', () => { if (!upgraded) { untrack(); upstream.close(); } });
    wss.handleUpgrade(req, socket, head, (client) => { upgraded = true; pump(client, upstream, untrack); });
  } catch (err) {
    rejectUpgrade(socket, err);
  }
}
