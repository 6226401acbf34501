/**
 * One HTTP request from virt-api to a node's virt-handler on a kept-alive connection, sent once
 * more when the handler had just closed that connection as idle (server/http/idle-resend.ts);
 * any other transport failure is reported with its code (ECONNREFUSED, ETIMEDOUT, …).
 */
import { Agent, request, type IncomingMessage } from 'node:http';
import { requestWithIdleResend } from '../http/idle-resend';

/** virt-handler serves plain HTTP with a bearer token (server/virt-handler/main.ts) */
const agent = new Agent({ keepAlive: true, maxSockets: 32 });

export interface HandlerReply { status: number; contentType: string; body: Buffer }

/** A failure before any answer: nothing to relay but the reason. */
class HandlerTransportError extends Error {}

export function requestHandler(url: string, method: 'GET' | 'PUT', token: string, timeoutMs: number): Promise<HandlerReply> {
  return requestWithIdleResend<HandlerReply>(agent, (via, { resolve, reject }) => {
    const req = request(url, { method, agent: via, headers: { authorization: `Bearer ${token}`, 'content-length': 0 } }, (res) => readReply(res).then(resolve, reject));
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    req.end();
    return req;
  }, (err) => new HandlerTransportError(err.code && !err.message.includes(err.code) ? `${err.message} (${err.code})` : err.message));
}

function readReply(res: IncomingMessage): Promise<HandlerReply> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('error', (e) => reject(new HandlerTransportError(e.message)));
    res.on('end', () => resolve({ status: res.statusCode ?? 500, contentType: res.headers['content-type'] ?? 'application/json', body: Buffer.concat(chunks) }));
  });
}
