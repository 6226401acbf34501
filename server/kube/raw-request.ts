import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

export class RawRequestError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly body: string,
  ) {
    super(message);
  }
}

/**
 * GET a path from the API server and return the JSON exactly as sent (the generated clients turn
 * timestamps into Date objects; watch events are plain JSON, so an informer must list in plain JSON
 * too to keep one shape in its cache).
 */
export async function getJson<T>(kc: KubeConfig, path: string, query: Record<string, string | undefined> = {}, signal?: AbortSignal): Promise<T> {
  const { url, opts } = await prepare(kc, 'GET', path);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  const text = await requestText(url, opts, signal);
  return JSON.parse(text) as T;
}

/** the URL of `path` on the kubeconfig's server and request options carrying its credentials */
async function prepare(kc: KubeConfig, method: string, path: string, headers: Record<string, string> = {}): Promise<{ url: URL; opts: https.RequestOptions }> {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('kubeconfig has no current cluster');
  const url = new URL(server.replace(/\/$/, '') + path);
  const opts: https.RequestOptions = { method, headers: { Accept: 'application/json', ...headers } };
  await kc.applyToHTTPSOptions(opts);
  delete opts.agent; // a fresh agent per call; the TLS options are on `opts` already
  return { url, opts };
}

/** PUT a JSON body to a path (subresources the generated clients do not know, e.g. KubeVirt's freeze). */
export async function putJson(kc: KubeConfig, path: string, body: unknown, signal?: AbortSignal): Promise<string> {
  const { url, opts } = await prepare(kc, 'PUT', path, { 'Content-Type': 'application/json' });
  return requestText(url, opts, signal, JSON.stringify(body));
}

/**
 * Sends `body` as JSON and answers with the status and the parsed reply, whatever the status (the
 * caller decides what a refusal means); `json` is undefined when the reply is not JSON.
 */
export async function exchangeJson<T>(kc: KubeConfig, method: string, path: string, body?: unknown): Promise<{ status: number; json: T | undefined }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const sized: Record<string, string> = payload === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(payload)) };
  const { url, opts } = await prepare(kc, method, path, { 'Content-Type': 'application/json', ...sized });
  const { status, text } = await send(url, opts, undefined, payload);
  try {
    return { status, json: JSON.parse(text) as T };
  } catch {
    return { status, json: undefined };
  }
}

/**
 * POST / PATCH / DELETE with a JSON body, the answer parsed as sent (no Date conversion, no field
 * renaming as the generated clients' serializer does). A failure's message is the API's Status message.
 */
export async function sendJson<T>(kc: KubeConfig, method: 'POST' | 'PATCH' | 'DELETE', path: string, body: unknown, contentType = 'application/json'): Promise<T> {
  const payload = JSON.stringify(body);
  // a sized body: a chunked DELETE body is refused by the server's HTTP parser
  const { url, opts } = await prepare(kc, method, path, { 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(payload)) });
  try {
    return JSON.parse(await requestText(url, opts, undefined, payload)) as T;
  } catch (err) {
    if (!(err instanceof RawRequestError)) throw err;
    let message = err.message;
    try { message = (JSON.parse(err.body) as { message?: string }).message ?? message; } catch { /* not a Status */ }
    throw new RawRequestError(err.statusCode, message, err.body);
  }
}

function send(url: URL, opts: https.RequestOptions, signal?: AbortSignal, body?: string): Promise<{ status: number; text: string }> {
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(url, { ...opts, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function requestText(url: URL, opts: https.RequestOptions, signal?: AbortSignal, body?: string): Promise<string> {
  const { status, text } = await send(url, opts, signal, body);
  if (status >= 200 && status < 300) return text;
  throw new RawRequestError(status, `${opts.method ?? 'GET'} ${url.pathname}: HTTP ${status}`, text);
}
