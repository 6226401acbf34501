/**
 * Where the API server reaches a node's kubelet (for `kubectl logs` and `kubectl port-forward`):
 * Node.status.daemonEndpoints.kubeletEndpoint on the Node's InternalIP, as kube-apiserver does.
 */
import type { ApiContext } from '../api-context';
import { getObject } from './read-objects';
import { StatusError } from '../status-error';

interface NodeShape { status?: { addresses?: { type: string; address: string }[]; daemonEndpoints?: { kubeletEndpoint?: { Port?: number } } } }

/** `purpose` ends the 503 message: "the kubelet of node "n" publishes no endpoint <purpose>" */
export function kubeletAddress(ctx: ApiContext, nodeName: string, purpose: string): { host: string; port: number } {
  const nodes = ctx.registry.find('', 'v1', 'nodes')!;
  const node = getObject(ctx, nodes, undefined, nodeName) as NodeShape;
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port ?? 0;
  const host = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
  if (!port || !host) throw new StatusError(503, 'ServiceUnavailable', `the kubelet of node "${nodeName}" publishes no endpoint ${purpose}`);
  return { host, port };
}
