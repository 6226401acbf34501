/**
 * virt-api's one error type: a Kubernetes Status with KubeVirt's message shapes (§4.1), turned into
 * an HTTP response (or a refused WebSocket upgrade) in exactly one place each.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export const VM_RESOURCE = 'virtualmachine.kubevirt.io';
export const VMI_RESOURCE = 'virtualmachineinstance.kubevirt.io';

export class ApiError extends Error {
  constructor(readonly code: number, readonly reason: string, message: string) {
    super(message);
    this.name = 'ApiError';
  }

  toStatus() {
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message, reason: this.reason, code: this.code };
  }
}

export const conflict = (resource: string, name: string, msg: string) =>
  new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${resource} "${name}": ${msg}`);
export const notFound = (resource: string, name: string) =>
  new ApiError(404, 'NotFound', `${resource} "${name}" not found`);
export const badRequest = (msg: string) => new ApiError(400, 'BadRequest', msg);
export const forbidden = (resource: string, name: string, msg: string) =>
  new ApiError(403, 'Forbidden', `${resource} "${name}" is forbidden: ${msg}`);
export const unauthorized = (msg: string) => new ApiError(401, 'Unauthorized', msg);
export const internal = (msg: string) => new ApiError(500, 'InternalError', `Internal error occurred: ${msg}`);

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return internal(err instanceof Error ? err.message : String(err));
}

export function sendApiError(res: ServerResponse, err: unknown): void {
  const e = toApiError(err);
  if (res.headersSent) return void res.end();
  res.writeHead(e.code, { 'content-type': 'application/json' }).end(JSON.stringify(e.toStatus()));
}

/** Refuse a WebSocket upgrade with an HTTP status (validated before upgrading). */
export function rejectUpgrade(socket: Duplex, err: unknown): void {
  const e = toApiError(err);
  const body = JSON.stringify(e.toStatus());
  socket.end(`HTTP/1.1 ${e.code} ${STATUS_CODES[e.code] ?? ''}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
