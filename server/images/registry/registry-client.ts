/**
 * The OCI distribution API v2, pull side: manifests by tag or digest and blobs by digest, each
 * checked against its sha256 digest. Anonymous, Bearer-token (the registry's WWW-Authenticate
 * challenge, with optional credentials for the token endpoint) and Basic auth.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { parseAuthChallenge, tokenUrl } from './auth-challenge';
import type { Credentials } from './docker-config';
import { MANIFEST_ACCEPT } from './media-types';
import { isValidDigest, parseManifest, type ParsedManifest } from './manifest';
import { describeRegistryErrors, RegistryError } from './registry-error';
import { registryScheme, type RegistryReference } from './registry-reference';

export interface RegistryClientOptions {
  credentials?: Credentials;
  insecureRegistries?: readonly string[];
  /** per-request timeout (ms) until the response headers arrive */
  timeoutMs?: number;
}

export interface FetchedManifest {
  digest: string;
  mediaType: string;
  body: string;
  manifest: ParsedManifest;
}

const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const RECONNECTABLE = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

export function sha256Digest(data: string | Buffer): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

export class RegistryClient {
  private authorization?: string;
  private readonly base: string;

  private get timeoutMs(): number {
    return this.opts.timeoutMs ?? 60_000;
  }

  constructor(private readonly ref: Pick<RegistryReference, 'apiHost' | 'repository' | 'registry'>, private readonly opts: RegistryClientOptions = {}) {
    this.base = `${registryScheme(ref.apiHost, opts.insecureRegistries)}://${ref.apiHost}/v2/${ref.repository}`;
  }

  /** GET /v2/<repo>/manifests/<tag|digest>; a digest reference must match the body's digest. */
  async getManifest(reference: string): Promise<FetchedManifest> {
    const res = await this.request(`${this.base}/manifests/${reference}`, { accept: MANIFEST_ACCEPT });
    const buf = Buffer.from(await res.arrayBuffer());
    if (buf.length > MAX_MANIFEST_BYTES) throw new RegistryError('ManifestInvalid', `manifest invalid: ${buf.length} bytes is too large`);
    const digest = sha256Digest(buf);
    if (reference.startsWith('sha256:') && digest !== reference) {
      throw new RegistryError('DigestMismatch', `manifest digest mismatch: asked for ${reference}, the registry sent ${digest}`);
    }
    const header = res.headers.get('docker-content-digest');
    if (header?.startsWith('sha256:') && header !== digest) {
      throw new RegistryError('DigestMismatch', `manifest digest mismatch: the registry says ${header}, its content is ${digest}`);
    }
    const body = buf.toString('utf8');
    const mediaType = res.headers.get('content-type')?.split(';')[0].trim() ?? '';
    return { digest, mediaType, body, manifest: parseManifest(body, mediaType) };
  }

  /** HEAD the manifest: its digest (from Docker-Content-Digest), undefined when the registry does not say. */
  async headManifest(reference: string): Promise<string | undefined> {
    const res = await this.request(`${this.base}/manifests/${reference}`, { accept: MANIFEST_ACCEPT, method: 'HEAD' });
    const d = res.headers.get('docker-content-digest') ?? undefined;
    return d && isValidDigest(d) ? d : undefined;
  }

  /** Downloads a blob into `dest` (written to a temporary name, renamed once its digest matched). */
  async fetchBlob(digest: string, dest: string): Promise<number> {
    if (!isValidDigest(digest)) throw new RegistryError('ManifestInvalid', `manifest invalid: unsupported digest ${digest}`);
    const abort = new AbortController();
    const res = await this.request(`${this.base}/blobs/${digest}`, { abort });
    if (!res.body) throw new RegistryError('BlobUnknown', `blob unknown: ${digest} has no body`);
    const hash = createHash('sha256');
    let size = 0;
    const stall = () => setTimeout(() => abort.abort(new Error(`blob download stalled for ${this.timeoutMs} ms`)), this.timeoutMs);
    let idle = stall();
    const tap = new Transform({
      transform(chunk: Buffer, _enc, cb) { clearTimeout(idle); idle = stall(); hash.update(chunk); size += chunk.length; cb(null, chunk); },
      flush(cb) { clearTimeout(idle); cb(); },
    });
    const tmp = `${dest}.part-${process.pid}-${Math.random().toString(36).slice(2)}`;
    try {
      await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), tap, createWriteStream(tmp, { mode: 0o444 })).catch((err: Error) => {
        throw err instanceof RegistryError ? err : new RegistryError('Network', `blob ${digest} download failed: ${err.message}`);
      });
      const got = `sha256:${hash.digest('hex')}`;
      if (got !== digest) throw new RegistryError('DigestMismatch', `blob digest mismatch: expected ${digest}, downloaded content is ${got}`);
      await rename(tmp, dest);
      return size;
    } finally {
      clearTimeout(idle);
      await rm(tmp, { force: true });
    }
  }

  /** `o.abort`: the caller's controller, which can still abort the response's body after this returns */
  private async request(url: string, o: { accept?: string; method?: string; abort?: AbortController }, retried = false, reconnected = false): Promise<Response> {
    const headers: Record<string, string> = {};
    if (o.accept) headers.accept = o.accept;
    if (this.authorization) headers.authorization = this.authorization;
    let res: Response;
    // the timeout covers the wait for the answer's headers, not a large blob's download (fetchBlob
    // aborts a download that stalls instead)
    const abort = o.abort ?? new AbortController();
    const timer = setTimeout(() => abort.abort(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    try {
      res = await fetch(url, { method: o.method ?? 'GET', headers, signal: abort.signal });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      // a kept-alive connection the registry closed just as it was reused: GET and HEAD are safe to send again
      if (!reconnected && !abort.signal.aborted && RECONNECTABLE.has(cause?.code ?? '')) return this.request(url, o, retried, true);
      throw new RegistryError('Network', `failed to reach ${this.ref.apiHost}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }

    if (res.status === 401 && !retried) {
      await this.authenticate(res.headers.get('www-authenticate'));
      return this.request(url, o, true, reconnected);
    }
    if (res.ok) return res;
    throw await this.failure(res, url);
  }

  private async authenticate(header: string | null): Promise<void> {
    const challenge = parseAuthChallenge(header);
    const creds = this.opts.credentials;
    const basic = creds ? `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}` : undefined;
    if (challenge?.scheme === 'basic') {
      if (!basic) throw new RegistryError('Unauthorized', `unauthorized: ${this.ref.registry} asks for credentials and no imagePullSecret has any for it`);
      this.authorization = basic;
      return;
    }
    if (challenge?.scheme !== 'bearer') throw new RegistryError('Unauthorized', `unauthorized: ${this.ref.registry} answered 401 without a usable WWW-Authenticate challenge`);
    let url: URL;
    try {
      url = tokenUrl(challenge, this.ref.repository);
    } catch (err) {
      throw new RegistryError('Unauthorized', `unauthorized: ${(err as Error).message}`);
    }
    let res: Response;
    try {
      res = await fetch(url, { headers: basic ? { authorization: basic } : {}, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      throw new RegistryError('Network', `failed to reach the token service ${url.host}: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) throw new RegistryError('Unauthorized', `unauthorized: the token service answered ${res.status}: ${describeRegistryErrors(text) ?? (text.trim().slice(0, 200) || res.statusText)}`);
    const doc = JSON.parse(text) as { token?: string; access_token?: string };
    const token = doc.token ?? doc.access_token;
    if (!token) throw new RegistryError('Unauthorized', 'unauthorized: the token service returned no token');
    this.authorization = `Bearer ${token}`;
  }

  private async failure(res: Response, url: string): Promise<RegistryError> {
    const text = res.status === 404 && res.headers.get('content-length') === '0' ? '' : await res.text().catch(() => '');
    const said = describeRegistryErrors(text);
    const what = url.includes('/manifests/') ? 'manifest' : 'blob';
    if (res.status === 401) return new RegistryError('Unauthorized', `unauthorized: ${said ?? 'authentication required'}`);
    if (res.status === 403) return new RegistryError('Denied', `denied: ${said ?? 'requested access to the resource is denied'}`);
    if (res.status === 404) return new RegistryError(what === 'manifest' ? 'ManifestUnknown' : 'BlobUnknown', said ?? `${what} unknown`);
    return new RegistryError('Registry', `${this.ref.apiHost} answered ${res.status} ${res.statusText}${said ? `: ${said}` : ''}`);
  }
}
