/**
 * Forwards one browser request to the API server as the signed-in user (the route handler behind
 * `/api/kube/...` is a thin adapter over this). Only Kubernetes API paths; the user's token decides
 * what is allowed.
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { apiServerUrl } from './user-client';

export interface ForwardRequest {
  method: string;
  /** `/apis/kubevirt.io/v1/...` (no query) */
  path: string;
  search?: string;
  body?: Buffer;
  contentType?: string;
  accept?: string;
}

export interface ForwardResponse { status: number; contentType: string; body: Buffer }

const API_PATH = /^\/apis?(\/[A-Za-z0-9._~%:@!$&'()*+,;=-]+)*\/?$/;

export function isApiPath(path: string): boolean {
  return API_PATH.test(path) && !path.split('/').some((s) => s === '..' || s === '.' || s.toLowerCase().includes('%2e%2e') || s.toLowerCase().includes('%2f'));
}

export async function forwardToApiServer(kc: KubeConfig, r: ForwardRequest, timeoutMs = 30_000): Promise<ForwardResponse> {
  if (!isApiPath(r.path)) return { status: 404, contentType: 'application/json', body: Buffer.from(JSON.stringify({ kind: 'Status', code: 404, message: 'not a Kubernetes API path' })) };
  const url = new URL(apiServerUrl(kc) + r.path + (r.search ?? ''));
  const headers: Record<string, string> = { accept: r.accept ?? 'application/json' };
  if (r.body?.length) { headers['content-type'] = r.contentType ?? 'application/json'; headers['content-length'] = String(r.body.length); }
  const opts: https.RequestOptions = { method: r.method, headers, timeout: timeoutMs };
  await kc.applyToHTTPSOptions(opts);
  delete opts.agent;
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const req = mod.request(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, contentType: String(res.headers['content-type'] ?? 'application/json'), body: Buffer.concat(chunks) }));
      res.on('error', (err) => resolve(gatewayError(err)));
    });
    req.on('timeout', () => req.destroy(new Error('the API server did not answer in time')));
    req.on('error', (err) => resolve(gatewayError(err)));
    req.end(r.body);
  });
}

function gatewayError(err: Error): ForwardResponse {
  const status = { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 502, reason: 'BadGateway', message: `cannot reach the API server: ${err.message}` };
  return { status: 502, contentType: 'application/json', body: Buffer.from(JSON.stringify(status)) };
}

/** Whether the user may do something (SelfSubjectAccessReview). */
export async function canI(kc: KubeConfig, attrs: { verb: string; group?: string; resource: string; subresource?: string; namespace?: string }): Promise<boolean> {
  const body = Buffer.from(JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: attrs } }));
  const res = await forwardToApiServer(kc, { method: 'POST', path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', body });
  if (res.status >= 300) return false;
  try { return JSON.parse(res.body.toString()).status?.allowed === true; } catch { return false; }
}
