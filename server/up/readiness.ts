import { readFileSync, statSync } from 'node:fs';
import { createSecureContext, type ConnectionOptions, type SecureContext } from 'node:tls';
import { request, type RequestOptions } from 'node:https';
import { request as httpRequest } from 'node:http';
import { parse } from 'yaml';
import type { V1NodeList } from '@kubernetes/client-node';
import { Annotation } from '../../lib/kubevirt/labels';

export interface ApiAccess { server: string; ca: string; token: string }

interface ParsedAccess { mtimeMs: number; size: number; access: ApiAccess | undefined }
const parsed = new Map<string, ParsedAccess>();

/**
 * Reads the server URL, CA and bearer token out of a kubeconfig written by the API server. The
 * liveness probes ask every second: the file is parsed again only when its mtime or size changed.
 */
export function readApiAccess(kubeconfigPath: string): ApiAccess | undefined {
  let st;
  try { st = statSync(kubeconfigPath); } catch { return undefined; }
  const known = parsed.get(kubeconfigPath);
  if (known && known.mtimeMs === st.mtimeMs && known.size === st.size) return known.access;
  const doc = parse(readFileSync(kubeconfigPath, 'utf8'));
  const cluster = doc?.clusters?.[0]?.cluster;
  const user = doc?.users?.[0]?.user;
  const ca = cluster?.['certificate-authority-data'] ? Buffer.from(cluster['certificate-authority-data'], 'base64').toString() : '';
  const access = cluster?.server && user?.token ? { server: cluster.server, ca, token: user.token } : undefined;
  parsed.set(kubeconfigPath, { mtimeMs: st.mtimeMs, size: st.size, access });
  return access;
}

/** one TLS context per CA: building one parses the CA again (a probe every second per component) */
const contexts = new Map<string, SecureContext>();
const contextFor = (ca: string): SecureContext | undefined => {
  if (!ca) return undefined;
  let ctx = contexts.get(ca);
  if (!ctx) { ctx = createSecureContext({ ca }); contexts.set(ca, ctx); }
  return ctx;
};

/**
 * GET a path on the API server; resolves with status and parsed JSON body (or undefined). `T` is
 * what the caller expects the JSON to be (not checked); a body that is not JSON comes as its text.
 */
export function apiGet<T = unknown>(access: ApiAccess, path: string, timeoutMs = 2000): Promise<{ status: number; body: T | undefined }> {
  return new Promise((resolveGet) => {
    // tls.connect takes a ready secureContext; https' RequestOptions type does not list it
    const options: RequestOptions & Pick<ConnectionOptions, 'secureContext'> = { secureContext: contextFor(access.ca), headers: { authorization: `Bearer ${access.token}`, accept: 'application/json' }, timeout: timeoutMs };
    const req = request(new URL(path, access.server), options, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { data += c; });
      res.on('end', () => {
        let body: unknown;
        try { body = JSON.parse(data); } catch { body = data; }
        resolveGet({ status: res.statusCode ?? 0, body: body as T });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolveGet({ status: 0, body: undefined }));
    req.end();
  });
}

/** Plain HTTP GET status (the console listens on loopback HTTP). */
export function httpStatus(url: string, timeoutMs = 2000): Promise<number> {
  return new Promise((resolveGet) => {
    const req = httpRequest(url, { timeout: timeoutMs }, (res) => { res.resume(); resolveGet(res.statusCode ?? 0); });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolveGet(0));
    req.end();
  });
}

/** Polls `check` until it returns true or the deadline passes. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, opts: { timeoutMs: number; intervalMs?: number; signal?: AbortSignal }): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    if (opts.signal?.aborted) throw new Error(`aborted while waiting for ${what}`);
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 100));
  }
}


/**
 * Names of Nodes that can run guests: Ready (the kubelet reports) and advertising their
 * virt-handler's endpoint (the handler is up and can serve consoles). `withHandler: false`
 * (`kv up --bare`, no virt-handler): Ready is enough.
 */
export async function readyNodes(access: ApiAccess, opts: { withHandler?: boolean } = {}): Promise<string[]> {
  const { status, body } = await apiGet<V1NodeList>(access, '/api/v1/nodes');
  if (status !== 200) return [];
  return (body!.items ?? [])
    .filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
    .filter((n) => opts.withHandler === false || !!n.metadata?.annotations?.[Annotation.HandlerEndpoint])
    .map((n) => n.metadata!.name!);
}

interface NodeNetwork { metadata?: { name?: string }; spec?: { podCIDR?: string }; status?: { conditions?: { type: string; status: string; message?: string }[] } }

/** One line on the nodes' pod network: their ranges, or why pods share the host's network. */
export async function podNetworkLine(access: ApiAccess): Promise<string> {
  const { status, body } = await apiGet<{ items?: NodeNetwork[] }>(access, '/api/v1/nodes');
  const nodes: NodeNetwork[] = status === 200 ? body!.items ?? [] : [];
  const ranges = nodes.filter((n) => n.spec?.podCIDR).map((n) => `${n.metadata?.name} ${n.spec!.podCIDR}`);
  if (ranges.length === nodes.length && ranges.length) return `pod network: ${ranges.join(', ')} (docs/networking.md)`;
  const why = nodes.flatMap((n) => n.status?.conditions ?? []).find((c) => c.type === 'NetworkUnavailable' && c.status === 'True')?.message;
  return `no pod network: ${why ?? 'unknown reason'}; guests sit behind QEMU's user network (docs/networking.md says what is lost)`;
}
