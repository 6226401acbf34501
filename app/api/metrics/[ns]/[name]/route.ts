/**
 * One VMI's CPU/memory (and migration) samples from the node agent's `/metrics`, found through the
 * Node annotation `kubevirt.io/handler-endpoint`. Reads VMI and Node as the signed-in user.
 */
import { NodeResource, resourcePath, VirtualMachineInstanceResource } from '@/lib/kubevirt/resources';
import { forwardToApiServer } from '@/server/console/api-forward';
import { statusResponse, userClientFor } from '@/server/console/route-session';
import { readVMISample } from '@/lib/console/prometheus-text';
import { Annotation } from '@/lib/kubevirt/labels';

export const dynamic = 'force-dynamic';
const SCRAPE_TIMEOUT_MS = 3000;

export async function GET(req: Request, ctx: { params: Promise<{ ns: string; name: string }> }): Promise<Response> {
  const auth = userClientFor(req);
  if ('error' in auth) return auth.error;
  const { ns, name } = await ctx.params;
  const vmiRes = await forwardToApiServer(auth.kc, { method: 'GET', path: resourcePath(VirtualMachineInstanceResource, { namespace: ns, name }) });
  if (vmiRes.status !== 200) return Response.json({ available: false, why: 'It is not running.' });
  const node = JSON.parse(vmiRes.body.toString()).status?.nodeName as string | undefined;
  if (!node) return Response.json({ available: false, why: 'It is not on a node yet.' });
  const nodeRes = await forwardToApiServer(auth.kc, { method: 'GET', path: resourcePath(NodeResource, { name: node }) });
  const endpoint = nodeRes.status === 200 ? JSON.parse(nodeRes.body.toString()).metadata?.annotations?.[Annotation.HandlerEndpoint] : undefined;
  if (!endpoint) return Response.json({ available: false, why: `Node ${node} publishes no metrics endpoint.` });
  try {
    const res = await fetch(new URL('/metrics', endpoint), { signal: AbortSignal.timeout(SCRAPE_TIMEOUT_MS), cache: 'no-store' });
    if (!res.ok) return Response.json({ available: false, why: `The node agent answered ${res.status}.` });
    return Response.json({ available: true, node, at: Date.now(), sample: readVMISample(await res.text(), ns, name) }, { headers: { 'cache-control': 'no-store' } });
  } catch (err) {
    return statusResponse(502, `Cannot reach the node agent on ${node}: ${(err as Error).message}`, 'BadGateway');
  }
}
