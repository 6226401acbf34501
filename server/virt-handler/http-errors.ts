/** One error type over HTTP: a Kubernetes Status, written in exactly one place per transport. */
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';

export class HttpError extends Error {
  constructor(readonly code: number, message: string, readonly reason = reasonFor(code)) {
    super(message);
  }
}

function reasonFor(code: number): string {
  return ({ 400: 'BadRequest', 401: 'Unauthorized', 404: 'NotFound', 405: 'MethodNotAllowed', 409: 'Conflict', 500: 'InternalError', 503: 'ServiceUnavailable' } as Record<number, string>)[code] ?? 'Unknown';
}

export function statusBody(err: HttpError): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: err.message, reason: err.reason, code: err.code });
}

export function toHttpError(err: unknown): HttpError {
  return err instanceof HttpError ? err : new HttpError(500, (err as Error)?.message ?? String(err));
}

export function sendError(res: ServerResponse, err: unknown): void {
  const e = toHttpError(err);
  res.writeHead(e.code, { 'content-type': 'application/json' }).end(statusBody(e));
}

/** Refuse a WebSocket upgrade with an HTTP status (validated before upgrading, like KubeVirt's proxy). */
export function rejectUpgrade(socket: Duplex, err: unknown): void {
  const e = toHttpError(err);
  const body = statusBody(e);
  socket.end(`HTTP/1.1 ${e.code} ${STATUS_CODES[e.code] ?? ''}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
