/**
 * A small in-process OCI distribution server for tests: GET/HEAD of manifests and blobs, tag
 * lists, optional Bearer-token auth with its own token endpoint (Basic credentials → token), and
 * request counters so tests can see cache hits. A real HTTP server speaking the protocol over
 * loopback; images are put in with pushContainerDisk (KubeVirt's containerDisk layout).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { pack as tarPack } from 'tar-stream';
import { MediaType } from '../registry/media-types';

export interface TestRegistryOptions {
  /**
   * when set, every /v2 request needs credentials: a Bearer token from /token, given for these Basic
   * credentials (scheme `bearer`, the default), or the Basic credentials themselves (scheme `basic`)
   */
  auth?: { username: string; password: string; scheme?: 'bearer' | 'basic' };
}

interface StoredManifest { body: Buffer; mediaType: string }

export interface PushedImage { manifestDigest: string; layerDigest: string; configDigest: string; indexDigest?: string; reference: string }

const digestOf = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** A tar with `disk/` and `disk/<fileName>` (uid/gid 107, as KubeVirt's containerDisk images are built). */
export async function containerDiskLayer(disk: Buffer, fileName = 'disk.qcow2', extra: { name: string; data: Buffer }[] = []): Promise<Buffer> {
  const p = tarPack();
  const chunks: Buffer[] = [];
  p.on('data', (c: unknown) => { chunks.push(c as Buffer); });
  const done = new Promise<void>((res, rej) => { p.on('end', () => res()); p.on('error', rej); });
  const mtime = new Date(0); // same content → same layer digest, as reproducible builds give
  p.entry({ name: 'disk/', type: 'directory', mode: 0o555, uid: 107, gid: 107, mtime });
  p.entry({ name: `disk/${fileName}`, mode: 0o440, uid: 107, gid: 107, mtime }, disk);
  for (const e of extra) p.entry({ name: e.name, mode: 0o644, mtime }, e.data);
  p.finalize();
  await done;
  return Buffer.concat(chunks);
}

export class TestRegistry {
  private server?: Server;
  private readonly manifests = new Map<string, Map<string, StoredManifest>>();
  private readonly blobs = new Map<string, Buffer>();
  private readonly tokens = new Set<string>();
  /** served instead of the real content (a tampered blob) */
  readonly tampered = new Map<string, Buffer>();
  /** this many next requests get their connection dropped without an answer */
  dropNext = 0;
  /** blobs sent in 8 chunks with this many ms between them; Infinity: half the blob, then nothing */
  readonly throttled = new Map<string, number>();
  readonly counts = { manifestGet: 0, manifestHead: 0, blobGet: 0, token: 0, unauthorized: 0 };
  /** per-digest blob GETs */
  readonly blobGets = new Map<string, number>();
  port = 0;

  constructor(private readonly opts: TestRegistryOptions = {}) {}

  /** `127.0.0.1:<port>` */
  get host(): string {
    return `127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  resetCounts(): void {
    for (const k of Object.keys(this.counts) as (keyof typeof this.counts)[]) this.counts[k] = 0;
    this.blobGets.clear();
  }

  putBlob(data: Buffer): string {
    const d = digestOf(data);
    this.blobs.set(d, data);
    return d;
  }

  putManifest(repo: string, tag: string | undefined, doc: object, mediaType: string): string {
    const body = Buffer.from(JSON.stringify(doc));
    const d = digestOf(body);
    const m = this.manifests.get(repo) ?? new Map<string, StoredManifest>();
    m.set(d, { body, mediaType });
    if (tag) m.set(tag, { body, mediaType });
    this.manifests.set(repo, m);
    return d;
  }

  untag(repo: string, tag: string): void {
    this.manifests.get(repo)?.delete(tag);
  }

  /** Pushes a containerDisk image (`/disk/<fileName>` holding `disk`) as `repo:tag`. */
  async pushContainerDisk(repo: string, tag: string, disk: Buffer, o: { gzip?: boolean; docker?: boolean; index?: boolean; fileName?: string; layer?: Buffer } = {}): Promise<PushedImage> {
    const tar = o.layer ?? await containerDiskLayer(disk, o.fileName);
    const layer = o.gzip === false ? tar : gzipSync(tar);
    const layerDigest = this.putBlob(layer);
    const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [digestOf(tar)] }, config: {} }));
    const configDigest = this.putBlob(config);
    const layerType = o.gzip === false ? MediaType.OciLayer : o.docker ? MediaType.DockerLayerGzip : MediaType.OciLayerGzip;
    const manifestType = o.docker ? MediaType.DockerManifest : MediaType.OciManifest;
    const manifest = {
      schemaVersion: 2, mediaType: manifestType,
      config: { mediaType: o.docker ? MediaType.DockerConfig : MediaType.OciConfig, digest: configDigest, size: config.length },
      layers: [{ mediaType: layerType, digest: layerDigest, size: layer.length }],
    };
    const manifestDigest = this.putManifest(repo, o.index ? undefined : tag, manifest, manifestType);
    let indexDigest: string | undefined;
    if (o.index) {
      const size = Buffer.byteLength(JSON.stringify(manifest));
      const indexType = o.docker ? MediaType.DockerManifestList : MediaType.OciIndex;
      indexDigest = this.putManifest(repo, tag, {
        schemaVersion: 2, mediaType: indexType,
        manifests: [
          { mediaType: manifestType, digest: digestOf(Buffer.from('arm64 stand-in')), size: 14, platform: { os: 'linux', architecture: 'arm64' } },
          { mediaType: manifestType, digest: manifestDigest, size, platform: { os: 'linux', architecture: 'amd64' } },
        ],
      }, indexType);
    }
    return { manifestDigest, layerDigest, configDigest, indexDigest, reference: `${this.host}/${repo}:${tag}` };
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (this.dropNext > 0) {
      this.dropNext--;
      req.socket.destroy();
      return;
    }
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (url.pathname === '/token') return this.issueToken(req, url, res);
    if (!url.pathname.startsWith('/v2/')) return this.error(res, 404, 'NOT_FOUND', 'not found');
    if (this.opts.auth && !this.authorized(req)) {
      this.counts.unauthorized++;
      const scope = /^\/v2\/(.+)\/(?:manifests|blobs|tags)\//.exec(url.pathname)?.[1];
      res.setHeader('www-authenticate', this.opts.auth.scheme === 'basic' ? 'Basic realm="test-registry"'
        : `Bearer realm="http://${this.host}/token",service="test-registry"${scope ? `,scope="repository:${scope}:pull"` : ''}`);
      return this.error(res, 401, 'UNAUTHORIZED', 'authentication required');
    }
    if (url.pathname === '/v2/') return this.send(res, 200, Buffer.from('{}'), 'application/json');
    const m = /^\/v2\/(.+)\/(manifests|blobs|tags)\/([^/]+)$/.exec(url.pathname);
    if (!m) return this.error(res, 404, 'NOT_FOUND', 'not found');
    const [, repo, kind, ref] = m;
    const head = req.method === 'HEAD';
    if (kind === 'tags') {
      const tags = [...(this.manifests.get(repo)?.keys() ?? [])].filter((k) => !k.startsWith('sha256:'));
      return this.send(res, 200, Buffer.from(JSON.stringify({ name: repo, tags })), 'application/json');
    }
    if (kind === 'manifests') {
      if (head) this.counts.manifestHead++; else this.counts.manifestGet++;
      const found = this.manifests.get(repo)?.get(ref);
      if (!found) return this.error(res, 404, 'MANIFEST_UNKNOWN', 'manifest unknown', head);
      res.setHeader('docker-content-digest', digestOf(found.body));
      return this.send(res, 200, found.body, found.mediaType, head);
    }
    if (!head) {
      this.counts.blobGet++;
      this.blobGets.set(ref, (this.blobGets.get(ref) ?? 0) + 1);
    }
    const blob = this.tampered.get(ref) ?? this.blobs.get(ref);
    if (!blob) return this.error(res, 404, 'BLOB_UNKNOWN', 'blob unknown to registry', head);
    res.setHeader('docker-content-digest', ref);
    const gap = this.throttled.get(ref);
    if (gap !== undefined && !head) return this.trickle(res, blob, gap);
    return this.send(res, 200, blob, 'application/octet-stream', head);
  }

  private trickle(res: ServerResponse, blob: Buffer, gapMs: number): void {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': blob.length });
    const step = Math.ceil(blob.length / 8);
    const chunks = Number.isFinite(gapMs) ? 8 : 4;
    let i = 0;
    const next = () => {
      if (i >= chunks || res.destroyed) return Number.isFinite(gapMs) && !res.destroyed ? void res.end() : undefined;
      res.write(blob.subarray(i * step, (i + 1) * step));
      i++;
      setTimeout(next, Number.isFinite(gapMs) ? gapMs : 0);
    };
    next();
  }

  private basicHeader(): string {
    const { username, password } = this.opts.auth ?? { username: '', password: '' };
    return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  }

  private authorized(req: IncomingMessage): boolean {
    const h = req.headers.authorization ?? '';
    if (this.opts.auth?.scheme === 'basic') return h === this.basicHeader();
    return h.startsWith('Bearer ') && this.tokens.has(h.slice(7));
  }

  private issueToken(req: IncomingMessage, url: URL, res: ServerResponse): void {
    this.counts.token++;
    if (req.headers.authorization !== this.basicHeader()) return this.error(res, 401, 'UNAUTHORIZED', 'incorrect username or password');
    if (url.searchParams.get('service') !== 'test-registry') return this.error(res, 400, 'UNSUPPORTED', 'unknown service');
    const token = randomBytes(16).toString('hex');
    this.tokens.add(token);
    this.send(res, 200, Buffer.from(JSON.stringify({ token, expires_in: 300 })), 'application/json');
  }

  private error(res: ServerResponse, status: number, code: string, message: string, head = false): void {
    this.send(res, status, Buffer.from(JSON.stringify({ errors: [{ code, message }] })), 'application/json', head);
  }

  private send(res: ServerResponse, status: number, body: Buffer, type: string, head = false): void {
    res.writeHead(status, { 'content-type': type, 'content-length': body.length });
    res.end(head ? undefined : body);
  }
}
