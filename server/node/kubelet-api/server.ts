/**
 * The embedded kubelet's own HTTP API (the part of a kubelet's :10250 the API server calls):
 * GET /containerLogs/{namespace}/{pod}/{container} for `kubectl logs`, and /healthz. Every request
 * but /healthz is reviewed as a kubelet reviews it (TokenReview, then SubjectAccessReview for
 * nodes/proxy on this node). Listens on 127.0.0.1: the nodes of `kv up` share the host.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../log';
import { bearerToken, type Review } from '../../kube/delegated-auth';
import { messageOf } from '../../kube/api-errors';
import { parseLogQuery, streamLog } from './container-log';
import { declineUpgrades } from '../../http/decline-upgrades';

/** Where a container's log is, or why there is none (a kubelet's 404/400 text). */
export type LogLocation = { file: string; isRunning: () => boolean } | { code: number; message: string };

export interface KubeletApiOptions {
  nodeName: string;
  host?: string;
  port?: number;
  review: (token: string | undefined, attrs: { verb: string; resource: string; subresource: string; name: string }) => Promise<Review>;
  findLog: (namespace: string, pod: string, container: string, previous: boolean) => LogLocation;
  log: Logger;
}

export interface KubeletApi {
  port: number;
  close(): Promise<void>;
}

const LOG_PATH = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)$/;

function sendText(res: ServerResponse, code: number, text: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

function decode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

async function serveLog(opts: KubeletApiOptions, req: IncomingMessage, res: ServerResponse, url: URL, m: RegExpExecArray): Promise<void> {
  const [ns, pod, container] = [decode(m[1]), decode(m[2]), decode(m[3])];
  if (!ns || !pod || !container) return sendText(res, 400, 'malformed path');
  const review = await opts.review(bearerToken(req.headers.authorization), { verb: 'get', resource: 'nodes', subresource: 'proxy', name: opts.nodeName });
  if (!review.allowed) return sendText(res, review.code, review.message);
  const query = parseLogQuery(url.searchParams);
  if ('error' in query) return sendText(res, 400, query.error);
  const where = opts.findLog(ns, pod, container, url.searchParams.get('previous') === 'true');
  if ('code' in where) return sendText(res, where.code, where.message);
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
  res.flushHeaders();
  await streamLog(where.file, query, { write: (b) => res.write(b) }, { isRunning: where.isRunning, signal: abort.signal });
  res.end();
}

export function startKubeletApi(opts: KubeletApiOptions): Promise<KubeletApi> {
  const server: Server = createServer((req, res) => {
    void (async () => {
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://kubelet');
      } catch {
        return sendText(res, 400, 'malformed request target');
      }
      if (url.pathname === '/healthz') return sendText(res, 200, 'ok');
      const m = LOG_PATH.exec(url.pathname);
      if (!m) return sendText(res, 404, '404 page not found\n');
      if (req.method !== 'GET') return sendText(res, 405, 'method not allowed');
      await serveLog(opts, req, res, url, m);
    })().catch((err: unknown) => {
      opts.log.warn({ err: messageOf(err), path: req.url }, 'kubelet API request failed');
      sendText(res, 500, `internal error: ${messageOf(err)}`);
    });
  });
  server.requestTimeout = 0; // followers stream for as long as they like
  declineUpgrades(server); // exec/attach/port-forward are not served here
  server.headersTimeout = 10_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
      });
    });
  });
}
