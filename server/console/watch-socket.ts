/**
 * `/ws/watch`: ONE WebSocket per browser tab carrying every live collection it shows. The browser
 * sends subscribe/unsubscribe; the server answers with lists and events, batched per tick (a JSON
 * array per frame) so a burst of 1000 changes is a few frames, not 1000.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { log } from '../log';
import type { WatchMessage, WatchRequest } from '../../lib/console/watch-events';
import { isSameOrigin } from './origin-check';
import { closeOnSignOut } from './close-on-sign-out';
import { sessionOf } from './session-cookie';
import { kubeConfigForToken } from './user-client';
import { isCollectionPath, WatchSubscription } from './watch-subscription';
import { rejectUpgrade } from './upgrade-reject';

const watchLog = log.child({ component: 'console-watch' });
const MAX_SUBSCRIPTIONS = 64;
const PING_MS = 20_000;

export function createWatchUpgradeHandler() {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: true });
  return (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isSameOrigin(req.headers.origin, req.headers.host)) return rejectUpgrade(socket, 403, 'cross-origin WebSocket refused');
    const session = sessionOf(req.headers.cookie);
    if (!session) return rejectUpgrade(socket, 401, 'sign in first');
    wss.handleUpgrade(req, socket, head, (ws) => {
      closeOnSignOut(ws, session.id);
      serveWatchSocket(ws, session.token);
    });
  };
}

function serveWatchSocket(ws: WebSocket, token: string): void {
  const kc = kubeConfigForToken(token);
  const subs = new Map<string, WatchSubscription>();
  let queue: WatchMessage[] = [];
  const flush = () => {
    const batch = queue;
    queue = [];
    if (batch.length && ws.readyState === ws.OPEN) ws.send(JSON.stringify(batch));
  };
  const send = (m: WatchMessage) => {
    if (queue.length === 0) setImmediate(flush);
    queue.push(m);
  };
  const ping = setInterval(() => ws.ping(), PING_MS);
  ws.on('message', (data) => {
    let req: WatchRequest;
    try { req = JSON.parse(String(data)); } catch { return; }
    if (req.op === 'unsubscribe') {
      subs.get(req.id)?.stop();
      subs.delete(req.id);
      return;
    }
    if (req.op !== 'subscribe' || typeof req.id !== 'string' || !isCollectionPath(req.path ?? '')) {
      return send({ id: String((req as { id?: unknown }).id ?? ''), kind: 'error', code: 400, message: 'bad subscription' });
    }
    if (subs.size >= MAX_SUBSCRIPTIONS && !subs.has(req.id)) return send({ id: req.id, kind: 'error', code: 429, message: 'too many watches on one socket' });
    subs.get(req.id)?.stop();
    const sub = new WatchSubscription(kc, { id: req.id, path: req.path, labelSelector: req.labelSelector, fieldSelector: req.fieldSelector }, send, watchLog);
    subs.set(req.id, sub);
    sub.start();
  });
  ws.on('close', () => {
    clearInterval(ping);
    for (const s of subs.values()) s.stop();
    subs.clear();
  });
  ws.on('error', () => ws.terminate());
}
