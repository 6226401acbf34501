/**
 * Raw HTTPS calls for e2e tests: the status code and the body exactly as a client sees them (no
 * client library in between), against the API server or virt-api directly, with a bearer token.
 */
import { request } from 'node:https';

export interface Endpoint { url: string; ca: string; token: string }
export interface RestReply { status: number; body: any; raw: Buffer; contentType: string }

const REQUEST_TIMEOUT_MS = 30_000;

export function callRest(ep: Endpoint, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<RestReply> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { authorization: `Bearer ${ep.token}`, accept: 'application/json' };
    if (payload) headers['content-type'] = contentType;
    const req = request(new URL(path, ep.url), { method, headers, ca: ep.ca, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const contentType = String(res.headers['content-type'] ?? '');
        let parsed: any = raw.toString('utf8');
        if (contentType.includes('json')) { try { parsed = JSON.parse(parsed); } catch { /* keep text */ } }
        resolve({ status: res.statusCode ?? 0, body: parsed, raw, contentType });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timeout`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Polls `fn` until it returns something truthy; throws with `what` after `timeoutMs`. */
export async function until<T>(what: string, fn: () => Promise<T | undefined | false | null> | T | undefined | false | null, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try { const v = await fn(); if (v) return v; last = v; } catch (err) { last = err; }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

export const VMS = (ns: string) => `/apis/kubevirt.io/v1/namespaces/${ns}/virtualmachines`;
export const VMIS = (ns: string) => `/apis/kubevirt.io/v1/namespaces/${ns}/virtualmachineinstances`;
export const subresource = (ns: string, resource: 'virtualmachines' | 'virtualmachineinstances', name: string, sub: string) =>
  `/apis/subresources.kubevirt.io/v1/namespaces/${ns}/${resource}/${name}/${sub}`;
