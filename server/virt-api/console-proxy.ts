/**
 * `vnc` and `console` WebSockets (subprotocol `plain.kubevirt.io`): authorize, check the Origin,
 * validate the VMI and dial its node's handler BEFORE upgrading the client, so every failure is an
 * HTTP status; then pump frames both ways. A new session takes over the old one (the handler closes
 * it with 4001); `preserveSession=true` refuses instead while a VNC session is open. A session
 * follows its guest across a live migration (the client's socket stays open).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { log } from '../log';
import { parseRequestTarget } from '../http/request-target';
import { ApiError, rejectUpgrade } from './api-error';
import { dialHandlerStream, resolveHandler } from './handler-client';
import { checkStream, type StreamKind } from './lifecycle/vmi-checks';
import type { Caller } from './request-auth';
import { findVMI, getVMI, type SubresourceContext } from './subresource-context';
import type { SubresourcePath } from './subresource-path';
import { RfbClientTracker } from './rfb-client-tracker';
import { resumeVncSession } from './vnc-resume';
import { isVMIFinal } from '../../lib/kubevirt/conditions';

const proxyLog = log.child({ component: 'console-proxy' });

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

/** The handler's code for "a newer session took this one over": that session is not followed. */
const CLOSE_REPLACED = 4001;
/** How long a session waits for its guest to appear on its new node after a migration. */
const FOLLOW_TIMEOUT_MS = 20_000;
const FOLLOW_POLL_MS = 100;

interface Session { ctx: SubresourceContext; namespace: string; name: string; kind: StreamKind; node: string }

/** The guest's stream on the node it moved to, once the VMI says it is there; undefined if it is not moving. */
async function followGuest(s: Session): Promise<{ ws: WebSocket; node: string } | undefined> {
  const deadline = Date.now() + FOLLOW_TIMEOUT_MS;
  for (;;) {
    const vmi = await findVMI(s.ctx, s.namespace, s.name).catch(() => undefined);
    const node = vmi?.status?.nodeName;
    const state = vmi?.status?.migrationState;
    const moving = !!state?.targetNode && state.targetNode !== s.node && !state.failed;
    if (!vmi || isVMIFinal(vmi) || (!moving && node === s.node)) return undefined;
    if (node && node !== s.node) {
      const ws = await dialHandlerStream(await resolveHandler(s.ctx.handlers, vmi), vmi, s.kind).catch(() => undefined);
      if (ws) return { ws, node };
    }
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, FOLLOW_POLL_MS));
  }
}

/**
 * Pumps frames both ways. When the handler's side closes because the guest moved (live migration),
 * the client's socket stays open: the pump dials the new node's handler (VNC: resumes the RFB
 * session there), holds client frames meanwhile, and carries on.
 */
function pump(client: WebSocket, first: WebSocket, session: Session, onEnd: () => void): void {
  let upstream = first;
  let held: { data: WebSocket.RawData; binary: boolean }[] | undefined;
  const rfb = session.kind === 'vnc' ? new RfbClientTracker() : undefined;
  const closeClient = (code: number, reason: string) => {
    if (client.readyState === WebSocket.OPEN) client.close(sendableCode(code), reason.slice(0, 120));
  };
  const forward = (data: WebSocket.RawData, binary: boolean) => { if (client.readyState === WebSocket.OPEN) client.send(data, { binary }); };
  const switchTo = async (next: { ws: WebSocket; node: string }) => {
    next.ws.on('error', () => next.ws.terminate());
    const extra = rfb ? await resumeVncSession(next.ws, rfb) : Buffer.alloc(0);
    upstream = next.ws;
    session.node = next.node;
    attach(next.ws);
    if (extra.length) forward(extra, true);
    for (const m of held ?? []) next.ws.send(m.data, { binary: m.binary });
    held = undefined;
  };
  const onUpstreamClose = async (ws: WebSocket, code: number, reason: Buffer) => {
    if (ws !== upstream || client.readyState !== WebSocket.OPEN) return;
    const canFollow = code !== CLOSE_REPLACED && (!rfb || rfb.atBoundary);
    held = [];
    const next = canFollow ? await followGuest({ ...session }) : undefined;
    proxyLog.info({ namespace: session.namespace, name: session.name, kind: session.kind, code, from: session.node, to: next?.node }, next ? 'console session follows the guest' : 'console session ends');
    if (next && client.readyState === WebSocket.OPEN) {
      try { return await switchTo(next); } catch { next.ws.terminate(); }
    }
    next?.ws.close();
    closeClient(code, reason.toString());
  };
  function attach(ws: WebSocket): void {
    ws.on('message', (data, binary) => { if (ws === upstream) forward(data, binary); });
    ws.on('close', (code, reason) => { void onUpstreamClose(ws, code, reason); });
    ws.on('error', () => ws.terminate());
    ws.resume();
  }
  attach(first);
  client.on('message', (data, binary) => {
    if (held) return void held.push({ data, binary });
    rfb?.take(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer));
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
  });
  client.on('close', (code, reason) => {
    onEnd();
    if (upstream.readyState === WebSocket.OPEN) upstream.close(sendableCode(code), reason.toString().slice(0, 120));
  });
  client.on('error', () => upstream.terminate());
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
    const preserve = parseRequestTarget(req.url)?.searchParams.get('preserveSession') === 'true';
    if (kind === 'vnc') ctx.vnc.checkPreserve(uid, path.name, preserve);
    const upstream = await dialHandlerStream(await resolveHandler(ctx.handlers, vmi), vmi, kind);
    const untrack = kind === 'vnc' ? ctx.vnc.track(uid) : () => undefined;
    let upgraded = false;
    socket.once('close', () => { if (!upgraded) { untrack(); upstream.close(); } });
    const session: Session = { ctx, namespace: path.namespace, name: path.name, kind, node: vmi.status?.nodeName ?? '' };
    wss.handleUpgrade(req, socket, head, (client) => { upgraded = true; pump(client, upstream, session, untrack); });
  } catch (err) {
    rejectUpgrade(socket, err);
  }
}
