/**
 * POST (or GET) pods/<name>/portforward with an upgrade (`kubectl port-forward`): kube-apiserver's
 * checks (the Pod exists, it has a node), then the upgrade goes on to that node's kubelet at
 * /portForward/<namespace>/<name> with the API server's kubelet client credentials, and the two
 * connections are joined. Both of kubectl's offers pass through untouched: the WebSocket carrying
 * SPDY (subprotocol SPDY/3.1+portforward.k8s.io) and plain SPDY/3.1; the kubelet speaks both.
 * The kubelet's refusals reach the client as it answered them.
 */
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiContext } from '../api-context';
import type { RequestInfo } from '../request-info';
import { getObject } from '../read/read-objects';
import { kubeletAddress } from '../read/kubelet-address';
import { badRequest, StatusError } from '../status-error';
import { rawResponseHead, spliceUpgraded } from '../../../http/upgrade-splice';

const CONNECT_TIMEOUT_MS = 10_000;

export const isPodPortForward = (info: RequestInfo): boolean =>
  info.isResource && info.apiPrefix === 'api' && info.group === '' && info.resource === 'pods' && info.subresource === 'portforward' && !!info.name && !!info.namespace;

/** the client's headers for the kubelet: its credentials and impersonation stay here */
function kubeletHeaders(req: IncomingMessage, token: string | undefined, host: string): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || k === 'authorization' || k === 'host' || k.startsWith('impersonate-')) continue;
    out[k] = v;
  }
  out.host = host;
  out.authorization = `Bearer ${token ?? ''}`;
  return out;
}

/** throws kube's Status for a missing Pod or one without a node; otherwise takes over the socket */
export function proxyPodPortForward(ctx: ApiContext, info: RequestInfo, req: IncomingMessage, socket: Duplex, head: Buffer, fail: (err: unknown) => void): void {
  const name = info.name!;
  const pods = ctx.registry.find('', 'v1', 'pods')!;
  const pod = getObject(ctx, pods, info.namespace, name) as { spec?: { nodeName?: string } };
  const nodeName = pod.spec?.nodeName;
  if (!nodeName) throw badRequest(`pod ${name} does not have a host assigned`);
  const target = kubeletAddress(ctx, nodeName, 'to forward ports to');
  const query = new URL(req.url ?? '/', 'http://api').search;
  const upstream = httpRequest({
    ...target,
    method: req.method,
    path: `/portForward/${encodeURIComponent(info.namespace!)}/${encodeURIComponent(name)}${query}`,
    headers: kubeletHeaders(req, ctx.kubeletClientToken, `${target.host}:${target.port}`),
    timeout: CONNECT_TIMEOUT_MS,
  });
  upstream.on('upgrade', (up, upSocket, upHead) => {
    upSocket.setTimeout(0);
    spliceUpgraded(socket, head, up, upSocket, upHead);
  });
  upstream.on('response', (up) => {
    // the kubelet refused: relay its answer and hang up
    socket.write(rawResponseHead(up));
    up.pipe(socket);
  });
  upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
  upstream.on('error', (err) => fail(new StatusError(503, 'ServiceUnavailable', `error dialing backend: ${err.message}`)));
  socket.on('error', () => upstream.destroy());
  upstream.end();
}
