/**
 * One HTTP request from virt-api to a node's virt-handler on a kept-alive connection. A socket
 * the handler closed as idle just as it was reused carries nothing the handler read, so that
 * request is sent again once on a fresh connection (Node's documented `reusedSocket` idiom);
 * any other transport failure is reported with its code (ECONNREFUSED, ETIMEDOUT, …).
 */
import { Agent, request, type ClientRequest, type IncomingMessage } from 'node:http';

/** virt-handler serves plain HTTP with a bearer token (server/virt-handler/main.ts) */
const agent = new Agent({ keepAlive: true, maxSockets: 32 });

export interface HandlerReply { status: number; contentType: string; body: Buffer }

/** A failure before any answer: nothing to relay but the reason. */
export class HandlerTransportError extends Error {}

export function requestHandler(url: string, method: 'GET' | 'PUT', token: string, timeoutMs: number): Promise<HandlerReply> {
  const attempt = (mayResend: boolean): Promise<HandlerReply> => new Promise((resolve, reject) => {
    const req: ClientRequest = request(url, {
      // the resend goes on a connection of its own: the pool's other idle sockets may have been closed at the same moment
      method, agent: mayResend ? agent : false, headers: { authorization: `Bearer ${token}`, 'content-length': 0 },
    }, (res) => readReply(res).then(resolve, reject));
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (mayResend && req.reusedSocket && err.code === 'ECONNRESET') return void attempt(false).then(resolve, reject);
      reject(new HandlerTransportError(err.code && !err.message.includes(err.code) ? `${err.message} (${err.code})` : err.message));
    });
    req.end();
  });
  return attempt(true);
}

function readReply(res: IncomingMessage): Promise<HandlerReply> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('error', (e) => reject(new HandlerTransportError(e.message)));
    res.on('end', () => resolve({ status: res.statusCode ?? 500, contentType: res.headers['content-type'] ?? 'application/json', body: Buffer.concat(chunks) }));
  });
}
