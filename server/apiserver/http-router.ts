import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UserInfo } from './authz';
import { findAPIService, proxyToAPIService } from './aggregation';
import type { ApiContext } from './rest/api-context';
import { discoveryDocument } from './rest/types/discovery';
import type { ResourceRequest } from './rest/handler-context';
import { sendError, sendJson } from './rest/codec/http-io';
import { serveOpenAPI } from './rest/types/openapi-docs';
import { parseRequestInfo, type RequestInfo } from './rest/request-info';
import type { ApiServerMetrics } from './metrics';
import { routeResource } from './rest/resource-router';
import { pathNotFound, unauthorized } from './rest/status-error';
import { authorizeRequest } from './request-authz';
import type { TokenFile } from './tokens';
import { authenticate } from './tokens';
import { impersonatedUser } from './rbac/impersonation';

export const KUBE_VERSION = { major: '1', minor: '32', gitVersion: 'v1.32.0-kubevirt-ts', gitCommit: '0000000000000000000000000000000000000000', gitTreeState: 'clean', buildDate: '2025-01-01T00:00:00Z', goVersion: 'go1.23.0', compiler: 'gc', platform: 'linux/amd64' };
const PUBLIC_PATHS = new Set(['/healthz', '/livez', '/readyz', '/version']);

export interface RouterOptions { ctx: ApiContext; tokens: TokenFile; serverAddress: () => string; bookmarkIntervalMs: number; isReady: () => boolean; metrics: ApiServerMetrics }

async function serveMetrics(metrics: ApiServerMetrics, res: ServerResponse): Promise<void> {
  const text = await metrics.registry.metrics();
  res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
  res.end(text);
}

function serveNonResource(o: RouterOptions, req: IncomingMessage, res: ServerResponse, path: string): void {
  if (path === '/version') return sendJson(res, 200, KUBE_VERSION);
  if (path === '/healthz' || path === '/livez' || path === '/readyz') {
    const ok = path !== '/readyz' || o.isReady();
    res.writeHead(ok ? 200 : 500, { 'Content-Type': 'text/plain; charset=utf-8' });
    return void res.end(ok ? 'ok' : 'not ready');
  }
  if (path.startsWith('/openapi/')) return serveOpenAPI(o.ctx.registry, req, res, path);
  if (path === '/metrics') return void serveMetrics(o.metrics, res).catch((err) => sendError(res, err));
  const doc = discoveryDocument(o.ctx.registry, o.ctx.apiservices, path, o.serverAddress());
  if (!doc) throw pathNotFound();
  sendJson(res, 200, doc);
}

async function serve(o: RouterOptions, req: IncomingMessage, res: ServerResponse, info: RequestInfo, identified: (user: UserInfo) => void): Promise<void> {
  const signedIn: UserInfo | undefined = authenticate(o.tokens, req);
  if (!signedIn && !PUBLIC_PATHS.has(info.path)) throw unauthorized();
  const user = signedIn && impersonatedUser(o.ctx, signedIn, req);
  if (user) identified(user);
  if (info.apiPrefix === 'apis' && info.group && info.version) {
    const svc = findAPIService(o.ctx.apiservices, info.group, info.version);
    if (svc) {
      authorizeRequest(o.ctx, user!, info);
      return proxyToAPIService(svc, req, res, user!);
    }
  }
  if (!info.isResource) {
    if (user) authorizeRequest(o.ctx, user, info);
    return serveNonResource(o, req, res, info.path);
  }
  const rt = o.ctx.registry.find(info.group, info.version, info.resource);
  if (!rt) throw pathNotFound();
  const r: ResourceRequest = { ctx: o.ctx, req, res, info, rt, user: user!, bookmarkIntervalMs: o.bookmarkIntervalMs };
  await routeResource(r);
}

/** the request listener: every error becomes one Status response here */
export function createRequestListener(o: RouterOptions) {
  const log = o.ctx.log;
  return (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    let info: RequestInfo;
    try {
      info = parseRequestInfo(req.method ?? 'GET', req.url ?? '/');
    } catch (err) {
      sendError(res, err);
      return;
    }
    const watchDone = info.verb === 'watch' ? o.metrics.watchStarted(info) : undefined;
    if (watchDone) res.once('close', watchDone);
    let username: string | undefined;
    serve(o, req, res, info, (u) => { username = u.username; })
      .catch((err) => {
        const se = sendError(res, err);
        if (se.code === 507) log.warn({ method: req.method, url: req.url, message: se.message }, 'write refused: the store is out of disk space');
        else if (se.code >= 500) log.error({ err, method: req.method, url: req.url }, 'request failed');
      })
      .finally(() => {
        const ms = performance.now() - started;
        o.metrics.observeRequest(info, res.statusCode, ms / 1000, username);
        log.debug({ method: req.method, url: req.url, code: res.statusCode, ms: Math.round(ms) }, 'request');
      });
  };
}
