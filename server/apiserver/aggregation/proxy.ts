import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { log } from '../../log';
import { apiServiceTarget, isAPIServiceAvailable, type APIService, type ProxyTarget } from './api-service-target';
import { forwardedHeaders, returnedHeaders } from './proxy-headers';
import { rawResponseHead, spliceUpgraded } from '../../http/upgrade-splice';

const logger = log.child({ component: 'aggregation' });

/**
 * One connection per proxied request. Node's global agent keeps connections alive, and a request
 * sent on a pooled connection just as the aggregated server closes it for idleness fails with
 * "socket hang up" (a spurious 503, found by e2e/http-fuzz.test.ts); the body already streamed
 * upstream cannot be replayed, so never reuse.
 */
const httpAgent = new HttpAgent({ keepAlive: false });
const httpsAgent = new HttpsAgent({ keepAlive: false });

type User = { username: string; groups: string[] };

/** The client certificate the front proxy presents to aggregated API servers (requestheader auth). */
let proxyClientTLS: { cert: string; key: string } | undefined;
export function setProxyClientCertificate(tls: { cert: string; key: string } | undefined): void {
  proxyClientTLS = tls;
}

/** Forwards one request to the APIService's server, streaming both bodies; 503 Status when it cannot. */
export function proxyToAPIService(svc: APIService, req: IncomingMessage, res: ServerResponse, user: User): void {
  const upstream = openUpstream(svc, req, user, false, (status) => writeStatus(res, status));
  if (!upstream) return;
  upstream.on('response', (up) => {
    res.writeHead(up.statusCode ?? 502, returnedHeaders(up.headers));
    up.pipe(res);
  });
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

/** Passes a WebSocket (or other) upgrade through to the APIService's server, subprotocols included. */
export function proxyUpgradeToAPIService(svc: APIService, req: IncomingMessage, socket: Duplex, head: Buffer, user: User): void {
  const upstream = openUpstream(svc, req, user, true, (status) => writeRawStatus(socket, status));
  if (!upstream) return;
  upstream.on('upgrade', (up, upSocket, upHead) => spliceUpgraded(socket, head, up, upSocket, upHead));
  upstream.on('response', (up) => {
    // the server refused to upgrade: relay its answer and hang up
    socket.write(rawResponseHead(up));
    up.pipe(socket);
  });
  upstream.end();
}

function openUpstream(svc: APIService, req: IncomingMessage, user: User, upgrade: boolean, fail: (status: object) => void): ClientRequest | undefined {
  if (!isAPIServiceAvailable(svc)) {
    fail(unavailable('service unavailable'));
    return undefined;
  }
  let target: ProxyTarget;
  try {
    target = apiServiceTarget(svc);
  } catch (e) {
    fail(unavailable(`error trying to reach service: ${(e as Error).message}`));
    return undefined;
  }
  const send = target.url.protocol === 'http:' ? httpRequest : httpsRequest;
  const options: RequestOptions & Record<string, unknown> = {
    protocol: target.url.protocol,
    hostname: target.url.hostname,
    port: target.url.port || undefined,
    method: req.method,
    path: req.url,
    agent: target.url.protocol === 'http:' ? httpAgent : httpsAgent,
    headers: forwardedHeaders(req.headers, user, { upgrade, host: target.url.host }),
    ...(target.url.protocol === 'https:' ? tlsOptions(target) : {}),
  };
  const upstream = send(options);
  upstream.on('error', (err) => {
    logger.warn({ apiservice: svc?.metadata?.name, err: err.message }, 'aggregated API server unreachable');
    fail(unavailable(`error trying to reach service: ${err.message}`));
  });
  return upstream;
}

function tlsOptions(t: ProxyTarget) {
  return {
    rejectUnauthorized: !t.insecure,
    ...(t.ca ? { ca: t.ca } : {}),
    ...(t.serverName ? { servername: t.serverName, checkServerIdentity: (_h: string, cert: PeerCertificate) => checkServerIdentity(t.serverName!, cert) } : {}),
    ...(proxyClientTLS ? { cert: proxyClientTLS.cert, key: proxyClientTLS.key } : {}),
  };
}

const unavailable = (message: string) => ({
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'ServiceUnavailable', code: 503,
});

function writeStatus(res: ServerResponse, status: object): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(503, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(status));
}

function writeRawStatus(socket: Duplex, status: object): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(status);
  socket.end(`HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
