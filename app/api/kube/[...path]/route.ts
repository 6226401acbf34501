/** `/api/kube/<API path>`: the browser's Kubernetes API calls, forwarded as the signed-in user. */
import { forwardToApiServer } from '@/server/console/api-forward';
import { userClientFor } from '@/server/console/route-session';

export const dynamic = 'force-dynamic';

async function forward(req: Request, ctx: { params: Promise<{ path: string[] }> }): Promise<Response> {
  const auth = userClientFor(req);
  if ('error' in auth) return auth.error;
  const { path } = await ctx.params;
  const url = new URL(req.url);
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.from(await req.arrayBuffer());
  const res = await forwardToApiServer(auth.kc, {
    method: req.method, path: '/' + path.map(encodeURIComponent).join('/'), search: url.search, body,
    contentType: req.headers.get('content-type') ?? undefined, accept: req.headers.get('accept') ?? undefined,
  });
  return new Response(res.status === 204 ? null : new Uint8Array(res.body), { status: res.status, headers: { 'content-type': res.contentType, 'cache-control': 'no-store' } });
}

export { forward as GET, forward as POST, forward as PUT, forward as PATCH, forward as DELETE };
