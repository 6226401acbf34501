/**
 * Helpers for Next route handlers (bundled apart from the custom server): read the session from a
 * Request (in the shared server-side store), check the origin, and answer errors as Kubernetes Status JSON.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { forwardToApiServer } from './api-forward';
import { isAllowedRequest } from './origin-check';
import { sessionOf } from './session-cookie';
import { kubeConfigForToken } from './user-client';

export function statusResponse(code: number, message: string, reason = ''): Response {
  return Response.json({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message }, { status: code });
}

export function sessionOfRequest(req: Request): { id: string; token: string } | undefined {
  return sessionOf(req.headers.get('cookie') ?? undefined);
}

export function sessionTokenOfRequest(req: Request): string | undefined {
  return sessionOfRequest(req)?.token;
}

/** The user's client, or the Response to send instead (401, or 403 for a cross-origin write). */
export function userClientFor(req: Request): { kc: KubeConfig } | { error: Response } {
  if (!isAllowedRequest(req.method, req.headers.get('origin'), req.headers.get('host'))) {
    return { error: statusResponse(403, 'cross-origin request refused', 'Forbidden') };
  }
  const token = sessionTokenOfRequest(req);
  if (!token) return { error: statusResponse(401, 'Your session has ended: sign in again.', 'Unauthorized') };
  return { kc: kubeConfigForToken(token) };
}

/** Whether the API server accepts a bearer token (a token it does not know gets 401). */
export async function isTokenAccepted(token: string): Promise<boolean> {
  return (await forwardToApiServer(kubeConfigForToken(token), { method: 'GET', path: '/api' })).status === 200;
}
