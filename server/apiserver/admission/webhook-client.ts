import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { requestWithIdleResend } from '../../http/idle-resend';
import { resolveServiceTarget } from './service-resolver';
import type { WebhookClientConfig } from './webhook-rules';

export const DEFAULT_TIMEOUT_SECONDS = 10;
const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

/** A call that did not produce an AdmissionReview: the failurePolicy decides what it means. */
export class WebhookCallError extends Error {}

/** Where a webhook's clientConfig points: the URL to dial and the name to verify TLS against. */
export function webhookEndpoint(clientConfig: WebhookClientConfig | undefined): { url: URL; serverName?: string } {
  if (clientConfig?.url) return { url: new URL(clientConfig.url) };
  const svc = clientConfig?.service;
  if (!svc?.name || !svc?.namespace) throw new WebhookCallError('webhook has neither url nor service');
  const target = resolveServiceTarget(svc.namespace, svc.name, svc.port);
  return { url: new URL(target.baseURL + (svc.path ?? '')), serverName: target.serverName };
}

/**
 * Connections to webhooks are kept open between reviews, as kube-apiserver's client does: a new TLS
 * handshake per review cost both sides more CPU than the review itself (two reviews per VMI create).
 * Sockets are told apart by CA and server name (part of the agent's key); an idle one is closed
 * before the server's own keep-alive timeout (Node honours its Keep-Alive hint).
 */
const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 32 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 32 }) };

/** POSTs an AdmissionReview and returns the parsed reply, honouring caBundle and the timeout. */
export async function postAdmissionReview(clientConfig: WebhookClientConfig | undefined, review: object, timeoutSeconds: number): Promise<unknown> {
  const { url, serverName } = webhookEndpoint(clientConfig);
  url.searchParams.set('timeout', `${timeoutSeconds}s`);
  const body = JSON.stringify(review);
  const ca = clientConfig?.caBundle ? Buffer.from(clientConfig.caBundle, 'base64').toString('utf8') : undefined;
  const display = `Post "${url.toString()}"`;
  const https = url.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  // a socket the webhook closed as idle just as it was reused: nothing was reviewed, it is sent again
  return requestWithIdleResend<unknown>(https ? agents.https : agents.http, (agent, { resolve, reject }) => {
    const req = send(url, {
      method: 'POST',
      agent,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': Buffer.byteLength(body) },
      ...(https ? tlsOptions(ca, serverName) : {}),
    }, (res) => readReply(res, display).then(resolve, reject));
    req.setTimeout(timeoutSeconds * 1000, () => req.destroy(new WebhookCallError(`${display}: context deadline exceeded`)));
    req.end(body);
    return req;
  }, (err) => (err instanceof WebhookCallError ? err : new WebhookCallError(`${display}: ${err.message}`)));
}

function tlsOptions(ca: string | undefined, serverName: string | undefined) {
  return {
    ...(ca ? { ca } : {}),
    ...(serverName ? { servername: serverName, checkServerIdentity: (_host: string, cert: PeerCertificate) => checkServerIdentity(serverName, cert) } : {}),
  };
}

function readReply(res: IncomingMessage, display: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_RESPONSE_BYTES) res.destroy(new WebhookCallError(`${display}: response too large`));
      else chunks.push(c);
    });
    res.on('error', (e) => reject(e instanceof WebhookCallError ? e : new WebhookCallError(`${display}: ${e.message}`)));
    res.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) {
        return reject(new WebhookCallError(`${display}: the server responded with status ${res.statusCode}: ${text.slice(0, 200)}`));
      }
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new WebhookCallError(`${display}: response is not JSON`));
      }
    });
  });
}
