import { qualifiedResource } from './types/resource-type';

/** The API server's Status errors: kube-apiserver's messages on the one StatusError (server/http). */
import { StatusError, type StatusCause } from '../../http/status-error';

export { StatusError, statusObject, type StatusCause } from '../../http/status-error';

type Res = { group: string; resource: string };

export const notFound = (rt: Res, name: string) =>
  new StatusError(404, 'NotFound', `${qualifiedResource(rt)} "${name}" not found`, { name, group: rt.group || undefined, kind: rt.resource });

export const pathNotFound = () => new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});

export const alreadyExists = (rt: Res, name: string) =>
  new StatusError(409, 'AlreadyExists', `${qualifiedResource(rt)} "${name}" already exists`, { name, group: rt.group || undefined, kind: rt.resource });

export const conflict = (rt: Res, name: string, why = 'the object has been modified; please apply your changes to the latest version and try again') =>
  new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(rt)} "${name}": ${why}`, { name, group: rt.group || undefined, kind: rt.resource });

export function invalid(rt: { group: string; kind: string }, name: string, causes: StatusCause[]): StatusError {
  const parts = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const joined = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  return new StatusError(422, 'Invalid', `${rt.kind}${rt.group ? '.' + rt.group : ''} "${name}" is invalid: ${joined}`,
    { name, group: rt.group || undefined, kind: rt.kind, causes });
}

export const badRequest = (message: string) => new StatusError(400, 'BadRequest', message);

export const forbidden = (message: string, details?: Record<string, unknown>) => new StatusError(403, 'Forbidden', message, details);

export const unauthorized = () => new StatusError(401, 'Unauthorized', 'Unauthorized');

export const methodNotAllowed = () =>
  new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});

export const expired = (message: string) => new StatusError(410, 'Expired', message);

export const unsupportedMediaType = (type: string, accepted: string[]) =>
  new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`, { causes: [{ reason: 'UnexpectedServerResponse', message: type }] });

export const internalError = (message: string) =>
  new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });

export const tooManyRequests = (message: string) => new StatusError(429, 'TooManyRequests', message);

/**
 * The store's disk is full (SQLite's SQLITE_FULL, or ENOSPC from the filesystem): the write did not
 * happen and nothing before it is lost. 507 rather than kube's 500 for etcd's "database space
 * exceeded", so a client (and a person reading kubectl's output) can tell it from a bug.
 */
export const insufficientStorage = (message: string) =>
  new StatusError(507, 'InsufficientStorage', `the API server's store cannot write: ${message}; free space on the disk of its data dir and retry (nothing acknowledged was lost)`, { causes: [{ message }] });

const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** anything thrown while serving a request becomes a StatusError */
export function toStatusError(err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  const e = err as { code?: number | string; reason?: string; message?: string };
  if (typeof e?.code === 'string' && DISK_FULL_CODES.has(e.code)) return insufficientStorage(e.message ?? e.code);
  if (e && typeof e.code === 'number' && e.code >= 400 && e.code < 600 && e.message) {
    const reason = e.reason ?? (e.code === 422 ? 'Invalid' : e.code === 409 ? 'Conflict' : 'BadRequest');
    return new StatusError(e.code, reason, e.message, {});
  }
  return internalError(e?.message ?? String(err));
}
