/**
 * The `portforward` subresource of VMIs and VMs (`…/portforward/{port}` or `…/{port}/{protocol}`),
 * as KubeVirt serves it: a WebSocket (subprotocol plain.kubevirt.io) whose binary frames are the
 * bytes of one TCP connection to the guest's port, or its UDP datagrams one per frame. Authorized, validated and dialed through the
 * node's virt-handler BEFORE the upgrade, so a stopped VMI or a closed port is an HTTP status.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { ApiError, VMI_RESOURCE, badRequest, conflict, rejectUpgrade } from './api-error';
import { dialHandlerStream, resolveHandler } from './handler-client';
import type { Caller } from './request-auth';
import { getVMI, type SubresourceContext } from './subresource-context';
import type { SubresourcePath } from './subresource-path';
import { isOriginAllowed, PLAIN_SUBPROTOCOL } from './console-proxy';

const wss = new WebSocketServer({
  noServer: true,
  handleProtocols: (protocols) => (protocols.has(PLAIN_SUBPROTOCOL) ? PLAIN_SUBPROTOCOL : false),
});

/** `portforward/80`, `portforward/80/tcp` → port and protocol; a malformed one is a 400. */
export function parsePortForwardSubresource(sub: string): { port: number; protocol: 'tcp' | 'udp' } | undefined {
  if (sub !== 'portforward' && !sub.startsWith('portforward/')) return undefined;
  const [, port, protocol = 'tcp', ...extra] = sub.split('/');
  const n = Number(port);
  if (!port || extra.length || !/^\d+$/.test(port) || n < 1 || n > 65535) throw badRequest(`invalid port: ${JSON.stringify(port ?? '')} (must be 1-65535)`);
  if (protocol !== 'tcp' && protocol !== 'udp') throw badRequest(`invalid protocol: ${JSON.stringify(protocol)} (tcp or udp)`);
  return { port: n, protocol: protocol as 'tcp' | 'udp' };
}

function pump(client: WebSocket, upstream: WebSocket): void {
  upstream.on('message', (data, binary) => { if (client.readyState === WebSocket.OPEN) client.send(data, { binary }); });
  upstream.on('close', () => { if (client.readyState === WebSocket.OPEN) client.close(1000, 'guest port closed'); });
  upstream.on('error', () => upstream.terminate());
  client.on('message', (data, binary) => { if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary }); });
  client.on('close', () => { if (upstream.readyState === WebSocket.OPEN) upstream.close(1000); });
  client.on('error', () => upstream.terminate());
  upstream.resume();
}

export async function servePortForward(ctx: SubresourceContext, caller: Caller, path: SubresourcePath, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  try {
    const target = parsePortForwardSubresource(path.subresource);
    if (!target) throw new ApiError(404, 'NotFound', `no stream ${path.subresource}`);
    if (!isOriginAllowed(req.headers.origin, req.headers.host, ctx.allowedOrigins)) throw new ApiError(403, 'Forbidden', `origin ${req.headers.origin} is not allowed`);
    await ctx.authorizer.check(caller, { verb: 'get', namespace: path.namespace, resource: path.resource, subresource: 'portforward', name: path.name });
    const vmi = await getVMI(ctx, path.namespace, path.name);
    if (vmi.status?.phase !== 'Running') throw conflict(VMI_RESOURCE, path.name, 'VMI is not running');
    const upstream = await dialHandlerStream(await resolveHandler(ctx.handlers, vmi), vmi, `portforward/${target.port}/${target.protocol}`);
    let upgraded = false;
    socket.once('close', () => { if (!upgraded) upstream.close(); });
    wss.handleUpgrade(req, socket, head, (client) => { upgraded = true; pump(client, upstream); });
  } catch (err) {
    rejectUpgrade(socket, err);
  }
}
