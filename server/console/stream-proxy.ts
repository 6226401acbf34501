/**
 * `/ws/vnc/{ns}/{name}` and `/ws/console/{ns}/{name}`: the browser's VNC/serial WebSocket, proxied
 * to the API server's `virtualmachineinstances/{name}/vnc|console` subresource (subprotocol
 * `plain.kubevirt.io`) with the signed-in user's token. Origin and session are checked before the
 * upgrade (HTTP 403/401); an upstream refusal closes the browser socket with 4000+HTTP status and
 * the server's message, so the page can say why; upstream close codes (4001 = another session took
 * over) pass through. Pings both ways keep idle proxies from dropping the stream.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { log } from '../log';
import { parseRequestTarget, requestPathname } from '../http/request-target';
import { isSameOrigin } from './origin-check';
import { closeOnSignOut } from './close-on-sign-out';
import { sessionOf } from './session-cookie';
import { rejectUpgrade } from './upgrade-reject';
import { upstreamSocketOptions, upstreamStreamUrl } from './upstream-dial';
import { kubeConfigForToken } from './user-client';

export const KUBEVIRT_SUBPROTOCOL = 'plain.kubevirt.io';
export type StreamKind = 'vnc' | 'console';
/** Close code base for an upstream HTTP refusal: 4000 + status (4409 = 409 Conflict). */
export const CLOSE_UPSTREAM_BASE = 4000;
export const CLOSE_UPSTREAM_GONE = 4999;

const streamLog = log.child({ component: 'console-stream' });
const PING_MS = 15_000;
const ROUTE = /^\/ws\/(vnc|console)\/([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)$/;

export function parseStreamRoute(url: string | undefined): { kind: StreamKind; namespace: string; name: string } | undefined {
  const m = ROUTE.exec(requestPathname(url) ?? '');
  return m ? { kind: m[1] as StreamKind, namespace: m[2], name: m[4] } : undefined;
}

/** A close code the browser may receive (1000, or the 4000 range). */
function passCloseCode(code: number): number {
  return code === 1000 || (code >= 4000 && code <= 4999) ? code : CLOSE_UPSTREAM_GONE;
}

const truncate = (s: string) => Buffer.from(s).subarray(0, 120).toString();

export function createStreamUpgradeHandler() {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  return (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const route = parseStreamRoute(req.url);
    if (!route) return rejectUpgrade(socket, 404, 'unknown stream');
    if (!isSameOrigin(req.headers.origin, req.headers.host)) return rejectUpgrade(socket, 403, 'cross-origin WebSocket refused');
    const session = sessionOf(req.headers.cookie);
    if (!session) return rejectUpgrade(socket, 401, 'sign in first');
    const kc = kubeConfigForToken(session.token);
    const query = parseRequestTarget(req.url)?.searchParams.get('preserveSession') === 'true' ? '?preserveSession=true' : '';
    const upstream = new WebSocket(upstreamStreamUrl(kc, route) + query, [KUBEVIRT_SUBPROTOCOL], upstreamSocketOptions(kc));
    upstream.binaryType = 'nodebuffer';
    const l = streamLog.child({ kind: route.kind, namespace: route.namespace, name: route.name });
    let answered = false; // the browser's upgrade got its answer (accepted, or refused)
    upstream.on('unexpected-response', (upReq, res) => {
      answered = true;
      let text = '';
      res.on('data', (c: Buffer) => { text += c; });
      res.on('end', () => {
        acceptThenClose(wss, { req, socket, head }, CLOSE_UPSTREAM_BASE + (res.statusCode ?? 500), messageOf(text, res.statusCode));
        upReq.destroy();
      });
    });
    upstream.on('error', (err) => {
      l.debug({ err: err.message }, 'upstream error');
      if (!answered) { answered = true; acceptThenClose(wss, { req, socket, head }, CLOSE_UPSTREAM_BASE + 502, truncate(`cannot reach the API server: ${err.message}`)); }
    });
    upstream.once('open', () => {
      answered = true;
      wss.handleUpgrade(req, socket, head, (client) => {
        closeOnSignOut(client, session.id);
        pump(client, upstream, l);
      });
    });
    socket.on('error', () => upstream.terminate());
  };
}

function messageOf(body: string, status?: number): string {
  try { return truncate(JSON.parse(body).message ?? `HTTP ${status}`); } catch { return truncate(body.trim() || `HTTP ${status}`); }
}

function acceptThenClose(wss: WebSocketServer, u: { req: IncomingMessage; socket: Duplex; head: Buffer }, code: number, reason: string): void {
  if (!u.socket.writable) return;
  wss.handleUpgrade(u.req, u.socket, u.head, (client) => client.close(Math.min(code, CLOSE_UPSTREAM_GONE), reason));
}

function pump(client: WebSocket, upstream: WebSocket, l: typeof streamLog): void {
  l.info('stream opened');
  const ping = setInterval(() => { client.ping(); upstream.ping(); }, PING_MS);
  client.on('message', (data: RawData, isBinary) => { if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary }); });
  upstream.on('message', (data: RawData, isBinary) => { if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary }); });
  upstream.on('close', (code, reason) => {
    clearInterval(ping);
    if (client.readyState === WebSocket.OPEN) client.close(passCloseCode(code), truncate(reason.toString()));
  });
  client.on('close', () => {
    clearInterval(ping);
    l.info('stream closed');
    if (upstream.readyState === WebSocket.OPEN || upstream.readyState === WebSocket.CONNECTING) upstream.close();
  });
  client.on('error', () => upstream.terminate());
  upstream.on('error', () => client.terminate());
}
