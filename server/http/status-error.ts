/**
 * kubevirt-ts's one error type over HTTP, on the server side: a Kubernetes meta/v1 Status
 * (`code`, `reason`, `message`, `details.causes[{reason, field, message}]`). The API server,
 * virt-api, virt-handler and the console all throw it; each turns it into a response in one place
 * (`writeStatus` for a request, `rejectUpgrade` for a WebSocket upgrade refused before upgrading).
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export interface StatusCause { reason?: string; message: string; field?: string }

/** kube's reason for a code, when the thrower names none */
const REASONS: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed', 406: 'NotAcceptable',
  409: 'Conflict', 410: 'Expired', 413: 'RequestEntityTooLarge', 415: 'UnsupportedMediaType', 422: 'Invalid', 429: 'TooManyRequests',
  500: 'InternalError', 503: 'ServiceUnavailable', 504: 'Timeout',
};

export function reasonForCode(code: number): string {
  return REASONS[code] ?? 'Unknown';
}

export function statusObject(code: number, reason: string, message: string, details?: Record<string, unknown>) {
  return {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: code < 400 ? 'Success' : 'Failure',
    message, reason, ...(details ? { details } : {}), code,
  };
}

export class StatusError extends Error {
  constructor(
    public readonly code: number,
    public readonly reason: string,
    message: string,
    public readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'StatusError';
  }

  toStatus(): Record<string, unknown> {
    return statusObject(this.code, this.reason, this.message, this.details);
  }
}

/** a StatusError with kube's reason for its code */
export const statusError = (code: number, message: string) => new StatusError(code, reasonForCode(code), message);

/** anything thrown becomes a StatusError: itself, or a 500 whose text `internal` shapes (never a stack) */
export function asStatusError(err: unknown, internal: (message: string) => StatusError = (m) => statusError(500, m)): StatusError {
  if (err instanceof StatusError) return err;
  return internal(err instanceof Error ? err.message : String(err));
}

/** answers a request with the error's Status (or just ends it, when the headers already went) */
export function writeStatus(res: ServerResponse, err: StatusError): void {
  if (res.headersSent) return void res.end();
  const body = JSON.stringify(err.toStatus());
  res.writeHead(err.code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

/** refuses a WebSocket upgrade with an HTTP status line and the Status, then closes */
export function rejectUpgrade(socket: Duplex, err: StatusError): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(err.toStatus());
  socket.end(`HTTP/1.1 ${err.code} ${STATUS_CODES[err.code] ?? 'Error'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
