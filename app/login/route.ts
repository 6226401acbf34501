/**
 * `/login?token=…` (the link `kv up` prints): trade the token for a session cookie, then go to `/`.
 * The redirect is a same-origin page (not a 302), so the SameSite=Strict cookie is sent on it even
 * when the link was opened from another site. Without a valid token: the sign-in page.
 */
import { isTokenAccepted } from '@/server/console/route-session';
import { sealSession, sessionCookieHeader, SESSION_KEY_ENV } from '@/server/console/session-cookie';

export const dynamic = 'force-dynamic';

const page = (target: string) =>
  `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${target}"><title>Signing in…</title><a href="${target}">Continue</a>`;

export async function GET(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const token = url.searchParams.get('token')?.trim();
  const valid = !!token && (await isTokenAccepted(token));
  if (!valid) return new Response(page(token ? '/signin?error=invalid' : '/signin'), { status: token ? 401 : 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
  const cookie = sessionCookieHeader(sealSession(token!, process.env[SESSION_KEY_ENV]!), { secure: url.protocol === 'https:' });
  return new Response(page('/'), { headers: { 'content-type': 'text/html; charset=utf-8', 'set-cookie': cookie, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } });
}
