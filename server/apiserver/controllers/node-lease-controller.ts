import { SYSTEM_USER, type ApiContext } from '../rest/api-context';
import { nowTimestamp, objectKey, objectPrefix } from '../rest/codec/object-codec';
import { updateObject } from '../rest/write/update-object';
import { isGone } from './registry-lookup';
import type { ApiObject } from '../rest/types/api-object';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
export const REASON_NODE_STATUS_UNKNOWN = 'NodeStatusUnknown';
export const MESSAGE_NODE_STATUS_UNKNOWN = 'Kubelet stopped posting node status.';
export const DEFAULT_NODE_LEASE_TIMEOUT_MS = 40_000;

const WRITE = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };
const NODES = { group: '', resource: 'nodes', namespaced: false };
const LEASES = { group: 'coordination.k8s.io', resource: 'leases', namespaced: true };

interface NodeCondition {
  type: string;
  status?: string;
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}
/** a stored Node, the fields node lifecycle reads */
interface StoredNode { metadata: { name: string; creationTimestamp?: string }; status?: { conditions?: NodeCondition[] } }
/** a stored coordination.k8s.io/v1 Lease */
interface StoredLease { spec?: { renewTime?: string } }

/** when the node last proved it was alive: its Lease's renewTime, else its Ready heartbeat, else creation */
export function lastHeartbeat(node: StoredNode, lease: StoredLease | undefined): number {
  const candidates = [lease?.spec?.renewTime, (node.status?.conditions ?? []).find((c) => c.type === 'Ready')?.lastHeartbeatTime, node.metadata?.creationTimestamp];
  return Math.max(...candidates.filter((t): t is string => Boolean(t)).map((t) => Date.parse(t)).filter((n) => !Number.isNaN(n)), 0);
}

/** the node's conditions once its kubelet is silent: every condition Unknown */
export function markConditionsUnknown(node: StoredNode, now: string): NodeCondition[] {
  const conds: NodeCondition[] = node.status?.conditions ?? [];
  const withReady = conds.some((c) => c.type === 'Ready') ? conds : [...conds, { type: 'Ready' }];
  return withReady.map((c) => (c.status === 'Unknown' ? c : { ...c, status: 'Unknown', reason: REASON_NODE_STATUS_UNKNOWN, message: MESSAGE_NODE_STATUS_UNKNOWN, lastTransitionTime: now }));
}

/**
 * Node lifecycle: a node whose Lease in kube-node-lease is not renewed for the timeout
 * gets Ready=Unknown (reason NodeStatusUnknown), like kube-controller-manager.
 */
export function startNodeLeaseController(ctx: ApiContext, timeoutMs = DEFAULT_NODE_LEASE_TIMEOUT_MS): () => void {
  const log = ctx.log.child({ controller: 'node-lifecycle' });
  const rt = ctx.registry.find('', 'v1', 'nodes')!;
  let busy = false;

  async function checkNodes(): Promise<void> {
    const now = Date.now();
    for (const kv of ctx.store.list(objectPrefix(NODES)).items) {
      const node: StoredNode = JSON.parse(kv.value);
      const leaseKv = ctx.store.get(objectKey(LEASES, NODE_LEASE_NAMESPACE, node.metadata.name));
      const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
      if (ready?.status === 'Unknown' || now - lastHeartbeat(node, leaseKv && JSON.parse(leaseKv.value)) <= timeoutMs) continue;
      log.info({ node: node.metadata.name }, 'node lease expired, marking Ready=Unknown');
      try {
        await updateObject(ctx, { rt, name: node.metadata.name, subresource: 'status', mutate: (n: ApiObject & StoredNode) => {
          delete n.metadata.resourceVersion;
          n.status = { ...n.status, conditions: markConditionsUnknown(n, nowTimestamp()) };
          return n;
        } }, WRITE);
      } catch (err) { if (!isGone(err)) log.warn({ err: String(err) }, 'node status update failed'); }
    }
  }

  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    checkNodes().catch((err: unknown) => log.warn({ err: String(err) }, 'node lease check failed')).finally(() => { busy = false; });
  }, Math.min(5000, Math.max(200, timeoutMs / 4)));
  return () => clearInterval(timer);
}
