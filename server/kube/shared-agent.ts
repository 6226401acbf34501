/**
 * Keep-alive connection pools for the generated API clients, one per server and TLS identity in the process.
 * client-node 1.x builds a new https.Agent for every request (KubeConfig.applySecurityAuthentication),
 * so every GET/PATCH/PUT opened a fresh TCP + TLS connection and built a TLS context with the CA
 * on both ends: at 1000 VMs that was most of virt-controller's CPU. Watches keep their own agent
 * (client-node's Watch destroys its agent's sockets when a watch ends).
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

/** Idle sockets kept per pool; busy sockets are not capped (a controller's workers run in parallel). */
const MAX_FREE_SOCKETS = 32;
const SHARED = Symbol('kv.sharedAgents');

type AgentLike = http.Agent & { options?: Record<string, unknown> };
interface RequestContextLike { getAgent(): AgentLike | undefined; setAgent(agent: AgentLike): void }
type Patched = KubeConfig & { [SHARED]?: true };

/**
 * The pools of the process, by server and TLS identity: a bearer token travels in each request's
 * header, so the components of `kv control-plane` (kubelets, handlers, controllers, scheduler, each
 * with its own KubeConfig) share warm connections — fewer TLS handshakes on both ends when a burst
 * of VMI starts needs more parallel requests than one component's pool had open.
 */
const POOLS = new Map<string, http.Agent>();

/** The TLS identity of an agent's options: requests with equal identities may share connections. */
function identityOf(opts: Record<string, unknown>): string {
  const pick = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'];
  return JSON.stringify(pick.map((k) => (Buffer.isBuffer(opts[k]) ? (opts[k] as Buffer).toString('base64') : opts[k] ?? null)));
}

/** Makes `kc`'s API clients reuse keep-alive connections; returns `kc`. Idempotent. */
export function shareConnections(kc: KubeConfig): KubeConfig {
  const patched = kc as Patched;
  if (patched[SHARED]) return kc;
  patched[SHARED] = true;
  const original = kc.applySecurityAuthentication.bind(kc);
  kc.applySecurityAuthentication = async (context: Parameters<KubeConfig['applySecurityAuthentication']>[0]) => {
    await original(context);
    const ctx = context as unknown as RequestContextLike;
    const fresh = ctx.getAgent();
    if (!fresh || kc.getCurrentCluster()?.proxyUrl) return;
    const isHttps = fresh instanceof https.Agent;
    if (!isHttps && fresh.constructor !== http.Agent) return; // a proxy agent: leave it alone
    const opts = fresh.options ?? {};
    const id = `${kc.getCurrentCluster()?.server}|${isHttps}|${identityOf(opts)}`;
    let pool = POOLS.get(id);
    if (!pool) {
      const keepAlive = { ...opts, keepAlive: true, maxFreeSockets: MAX_FREE_SOCKETS };
      pool = isHttps ? new https.Agent(keepAlive) : new http.Agent(keepAlive);
      POOLS.set(id, pool);
    }
    ctx.setAgent(pool);
  };
  return kc;
}
