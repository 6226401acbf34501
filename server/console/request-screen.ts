/**
 * What the console refuses before Next.js sees a request: targets it cannot parse or whose
 * percent-encoding is malformed (Next's router would throw and answer 500), and methods no page
 * or route handler serves. Pure: returns the refusal, or undefined to pass the request on.
 */
import { decodePathSegment, parseRequestTarget } from '../http/request-target';

export interface Refusal { code: number; message: string }

const SERVED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function screenConsoleRequest(method: string | undefined, target: string | undefined): Refusal | undefined {
  if (!SERVED_METHODS.has(method ?? '')) return { code: 405, message: `method ${method} is not allowed` };
  const url = target?.startsWith('/') ? parseRequestTarget(target) : undefined; // origin-form only (no `*`, no absolute URL)
  if (!url) return { code: 400, message: 'invalid request target' };
  if (url.pathname.split('/').some((s) => decodePathSegment(s) === undefined)) return { code: 400, message: 'invalid request path: malformed percent-encoding' };
  return undefined;
}
