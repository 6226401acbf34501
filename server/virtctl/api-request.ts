/**
 * One HTTP call to the API server with the kubeconfig's credentials: the subresources
 * (subresources.kubevirt.io is an aggregated API the generated clients do not cover). A non-2xx
 * answer becomes an ApiCallError whose message is the Kubernetes Status' message, which is what
 * client-go's StatusError prints.
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

export class ApiCallError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ApiResponse {
  statusCode: number;
  body: Buffer;
  contentType: string | undefined;
}

export async function apiRequest(kc: KubeConfig, method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown): Promise<ApiResponse> {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new ApiCallError(0, 'the kubeconfig has no current cluster');
  const url = new URL(server.replace(/\/$/, '') + path);
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (payload) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) });
  const opts: https.RequestOptions = { method, headers };
  await kc.applyToHTTPSOptions(opts);
  delete opts.agent;
  const res = await send(url, opts, payload);
  if (res.statusCode < 200 || res.statusCode > 299) throw new ApiCallError(res.statusCode, statusMessage(res));
  return res;
}

function send(url: URL, opts: https.RequestOptions, payload: Buffer | undefined): Promise<ApiResponse> {
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body: Buffer.concat(chunks), contentType: res.headers['content-type'] }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The Status message of an error answer, else the HTTP status line and the body's first line. */
export function statusMessage(res: ApiResponse): string {
  const text = res.body.toString('utf8');
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed && typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: fall through
  }
  const first = text.split('\n')[0]?.trim();
  return `the server responded with HTTP ${res.statusCode}${first ? `: ${first}` : ''}`;
}
