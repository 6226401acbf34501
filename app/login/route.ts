/**
 * `/login?code=…` (the one-time link `kv up` and `kv console login-link` print): spend the code for a
 * server-side session, then go to `/`. The redirect is a same-origin page (not a 302), so the
 * SameSite=Strict cookie is sent on it even when the link was opened from another site. A code that
 * was used, expired or never existed: the sign-in page, saying so.
 */
import { consoleSessions } from '@/server/console/console-sessions';
import { isTokenAccepted } from '@/server/console/route-session';
import { startSession } from '@/server/console/session-cookie';

export const dynamic = 'force-dynamic';

const page = (target: string) =>
  `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${target}"><title>Signing in…</title><a href="${target}">Continue</a>`;

const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

export async function GET(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const code = url.searchParams.get('code')?.trim();
  if (!code) return new Response(page('/signin'), { status: 200, headers });
  const redeemed = consoleSessions().redeemLoginCode(code);
  if ('error' in redeemed) return new Response(page('/signin?error=link'), { status: 401, headers });
  if (!(await isTokenAccepted(redeemed.token))) return new Response(page('/signin?error=invalid'), { status: 401, headers });
  return new Response(page('/'), { headers: { ...headers, 'set-cookie': startSession(redeemed.token, url.protocol === 'https:') } });
}
