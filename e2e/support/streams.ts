/** WebSockets to the console subresources, as a client outside the cluster opens them (bearer token, cluster CA). */
import WebSocket from 'ws';
import type { Endpoint } from './rest';

export const PLAIN_SUBPROTOCOL = 'plain.kubevirt.io';
const HANDSHAKE_MS = 30_000;

export type Opened = { ws: WebSocket; status?: undefined } | { ws?: undefined; status: number; body: string };

/** Resolves with the open socket, or with the HTTP status and body of a refused upgrade. */
export function openStream(ep: Endpoint, path: string, opts: { origin?: string } = {}): Promise<Opened> {
  const url = new URL(path, ep.url.replace(/^http/, 'ws'));
  const headers: Record<string, string> = { authorization: `Bearer ${ep.token}` };
  if (opts.origin) headers.origin = opts.origin;
  const ws = new WebSocket(url, [PLAIN_SUBPROTOCOL], { headers, ca: ep.ca, handshakeTimeout: HANDSHAKE_MS });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
}

/** Collects what the peer sends (as latin1 text) until `done(text)` holds or `timeoutMs` passes; `poke` is sent every `pokeMs`. */
export function readUntil(ws: WebSocket, done: (text: string) => boolean, opts: { timeoutMs: number; poke?: Buffer; pokeMs?: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = (err?: Error) => { clearTimeout(timer); clearInterval(poker); ws.off('message', onMessage); if (err) reject(err); else resolve(text); };
    const onMessage = (d: Buffer) => { text += d.toString('latin1'); if (done(text)) finish(); };
    const timer = setTimeout(() => finish(new Error(`stream never matched; got ${JSON.stringify(text.slice(-300))}`)), opts.timeoutMs);
    const poker = setInterval(() => { if (opts.poke && ws.readyState === WebSocket.OPEN) ws.send(opts.poke); }, opts.pokeMs ?? 1000);
    ws.on('message', onMessage);
    if (opts.poke) ws.send(opts.poke);
  });
}
