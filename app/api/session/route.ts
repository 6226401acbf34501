/** GET: who am I and what may I do. POST {token}: sign in (same origin only). DELETE: sign out (the session ends server-side). */
import { canI } from '@/server/console/api-forward';
import { consoleSessions } from '@/server/console/console-sessions';
import { isSameOrigin } from '@/server/console/origin-check';
import { isTokenAccepted, statusResponse, sessionOfRequest } from '@/server/console/route-session';
import { clearSessionCookieHeader, startSession } from '@/server/console/session-cookie';
import { kubeConfigForToken } from '@/server/console/user-client';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const session = sessionOfRequest(req);
  if (!session) return Response.json({ signedIn: false });
  const kc = kubeConfigForToken(session.token);
  const [canWrite, canConsole] = await Promise.all([
    canI(kc, { verb: 'update', group: 'subresources.kubevirt.io', resource: 'virtualmachines', subresource: 'start' }),
    canI(kc, { verb: 'get', group: 'subresources.kubevirt.io', resource: 'virtualmachineinstances', subresource: 'vnc' }),
  ]);
  return Response.json({ signedIn: true, canWrite, canConsole }, { headers: { 'cache-control': 'no-store' } });
}

export async function POST(req: Request): Promise<Response> {
  if (!isSameOrigin(req.headers.get('origin'), req.headers.get('host'))) return statusResponse(403, 'cross-origin request refused', 'Forbidden');
  const { token } = (await req.json().catch(() => ({}))) as { token?: unknown };
  if (typeof token !== 'string' || !(await isTokenAccepted(token.trim()))) return statusResponse(401, 'The API server does not accept this token.', 'Unauthorized');
  const secure = new URL(req.url).protocol === 'https:';
  return Response.json({ signedIn: true }, { headers: { 'set-cookie': startSession(token.trim(), secure) } });
}

export async function DELETE(req: Request): Promise<Response> {
  if (!isSameOrigin(req.headers.get('origin'), req.headers.get('host'))) return statusResponse(403, 'cross-origin request refused', 'Forbidden');
  const session = sessionOfRequest(req);
  if (session) consoleSessions().revoke(session.id);
  return Response.json({ signedIn: false }, { headers: { 'set-cookie': clearSessionCookieHeader() } });
}
