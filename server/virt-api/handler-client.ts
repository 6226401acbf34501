/**
 * Reaching the virt-handler of a VMI's node: its URL from the Node annotation the handler writes,
 * its bearer token from the node runtime dir (embedded mode). Commands are plain HTTP requests;
 * streams are WebSockets dialed before the client is upgraded, so failures stay HTTP statuses.
 */
import { readFileSync } from 'node:fs';
import type { CoreV1Api } from '@kubernetes/client-node';
import WebSocket from 'ws';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import { dataPaths } from '../data-dir';
import { messageOf } from '../kube/api-errors';
import { ApiError, badRequest, internal } from './api-error';
import { requestHandler, type HandlerReply } from './handler-request';
import { Annotation } from '../../lib/kubevirt/labels';

/** Written by virt-handler on its Node (see server/virt-handler/constants.ts). */
const COMMAND_TIMEOUT_MS = 30_000;

export interface HandlerEndpoint { url: string; token: string }

export interface HandlerLookup {
  core: CoreV1Api;
  /** Embedded mode: where the node token files are. */
  dataDir?: string;
}

export async function resolveHandler(h: HandlerLookup, vmi: VirtualMachineInstance): Promise<HandlerEndpoint> {
  const node = vmi.status?.nodeName;
  if (!node) throw badRequest('VMI is not running');
  let url: string | undefined;
  try {
    url = (await h.core.readNode({ name: node })).metadata?.annotations?.[Annotation.HandlerEndpoint];
  } catch (err) {
    throw internal(`unable to find the handler of node ${node}: ${messageOf(err)}`);
  }
  if (!url) throw internal(`node ${node} does not advertise a virt-handler endpoint`);
  // cluster mode: the handlers' shared token comes from a Secret; embedded: one file per node
  let token = process.env.KV_HANDLER_TOKEN ?? '';
  if (!token && h.dataDir) {
    try { token = readFileSync(dataPaths(h.dataDir).handlerToken(node), 'utf8').trim(); } catch { /* no token: the handler answers 401 */ }
  }
  return { url: url.replace(/\/$/, ''), token };
}

const vmiPath = (vmi: VirtualMachineInstance, sub: string) =>
  `/v1/namespaces/${vmi.metadata.namespace}/virtualmachineinstances/${vmi.metadata.name}/${sub}`;

/** Turns the handler's Status error into ours; its conflicts keep their code, transport errors are 500. */
function fromHandler(code: number, body: string): ApiError {
  let message = body;
  try { message = JSON.parse(body).message ?? body; } catch { /* plain text */ }
  if (code >= 400 && code < 500 && code !== 401 && code !== 404) return new ApiError(code, code === 409 ? 'Conflict' : 'BadRequest', message);
  // the guest or its launcher cannot be reached (a closed port, a launcher going away): not our fault
  if (code === 502 || code === 503 || code === 504) return new ApiError(503, 'ServiceUnavailable', message);
  return internal(message || `virt-handler answered ${code}`);
}

export interface HandlerResponse { body: Buffer; contentType: string }

export async function callHandler(ep: HandlerEndpoint, vmi: VirtualMachineInstance, method: 'GET' | 'PUT', sub: string): Promise<HandlerResponse> {
  let res: HandlerReply;
  try {
    res = await requestHandler(`${ep.url}${vmiPath(vmi, sub)}`, method, ep.token, COMMAND_TIMEOUT_MS);
  } catch (err) {
    throw internal(`unable to reach virt-handler: ${messageOf(err)}`);
  }
  if (res.status < 200 || res.status >= 300) throw fromHandler(res.status, res.body.toString('utf8'));
  return { body: res.body, contentType: res.contentType };
}

/**
 * Opens the handler's stream socket, PAUSED: a VNC server greets at once, and those bytes must not
 * be emitted before the caller listens; call `ws.resume()` after attaching 'message'. Rejects with
 * the handler's HTTP status as an ApiError.
 */
export function dialHandlerStream(ep: HandlerEndpoint, vmi: VirtualMachineInstance, kind: 'vnc' | 'console' | `portforward/${number}/${'tcp' | 'udp'}`): Promise<WebSocket> {
  const url = `${ep.url.replace(/^http/, 'ws')}${vmiPath(vmi, kind)}`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${ep.token}` }, handshakeTimeout: COMMAND_TIMEOUT_MS });
    // paused until the caller's pump listens: QEMU's VNC server speaks first, and a 'message' emitted
    // before anyone listens is lost (the viewer then waits forever for the RFB banner)
    ws.once('open', () => { ws.removeAllListeners('error'); ws.pause(); resolve(ws); });
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => reject(fromHandler(res.statusCode ?? 500, Buffer.concat(chunks).toString('utf8'))));
      res.on('error', () => reject(internal('virt-handler refused the stream')));
    });
    ws.once('error', (err) => reject(internal(`unable to reach virt-handler: ${err.message}`)));
  });
}
