/**
 * virt-api's one error type: a Kubernetes Status with KubeVirt's message shapes (§4.1), turned into
 * an HTTP response (or a refused WebSocket upgrade) in exactly one place each.
 */
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Refusal } from '../../lib/kubevirt/lifecycle-rules';
import { asStatusError, rejectUpgrade as rejectUpgradeWithStatus, StatusError, writeStatus } from '../http/status-error';

export const VM_RESOURCE = 'virtualmachine.kubevirt.io';
export const VMI_RESOURCE = 'virtualmachineinstance.kubevirt.io';

/** virt-api throws the one StatusError; the name stays for its many call sites */
export { StatusError as ApiError };

export const conflict = (resource: string, name: string, msg: string) =>
  new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${resource} "${name}": ${msg}`);
export const notFound = (resource: string, name: string) =>
  new StatusError(404, 'NotFound', `${resource} "${name}" not found`);
export const badRequest = (msg: string) => new StatusError(400, 'BadRequest', msg);
export const forbidden = (resource: string, name: string, msg: string) =>
  new StatusError(403, 'Forbidden', `${resource} "${name}" is forbidden: ${msg}`);
export const unauthorized = (msg: string) => new StatusError(401, 'Unauthorized', msg);
export const internal = (msg: string) => new StatusError(500, 'InternalError', `Internal error occurred: ${msg}`);

export function toApiError(err: unknown): StatusError {
  return asStatusError(err, internal);
}

export function sendApiError(res: ServerResponse, err: unknown): void {
  writeStatus(res, toApiError(err));
}

/** Refuse a WebSocket upgrade with an HTTP status (validated before upgrading). */
export function rejectUpgrade(socket: Duplex, err: unknown): void {
  rejectUpgradeWithStatus(socket, toApiError(err));
}

/** a lifecycle refusal (lib/kubevirt/lifecycle-rules.ts) as the error KubeVirt answers with */
export function refusalError(r: Refusal, name: string): StatusError {
  const resource = r.resource === 'vm' ? VM_RESOURCE : VMI_RESOURCE;
  if (r.code === 404) return notFound(resource, name);
  if (r.code === 403) return forbidden(resource, name, r.message);
  return conflict(resource, name, r.message);
}
