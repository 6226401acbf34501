/**
 * Malformed HTTP requests for the listener fuzz (e2e/http-fuzz.test.ts), drawn by fast-check from
 * a grammar of what hostile clients send: broken targets and percent-encoding, odd methods and
 * media types, truncated or garbage bodies in every served content type, deep nesting, huge
 * headers. `framed` requests have valid HTTP framing (sent over keep-alive connections); `raw`
 * ones are bytes on a fresh connection, for what an HTTP client library refuses to send.
 */
import fc from 'fast-check';

export type Identity = 'none' | 'viewer' | 'admin' | 'garbage';
export interface FramedRequest { kind: 'framed'; method: string; path: string; headers: Record<string, string>; body?: Buffer; identity: Identity }
export interface RawRequest { kind: 'raw'; bytes: Buffer }
export type FuzzRequest = FramedRequest | RawRequest;

const PREFIXES = [
  '/', '/api', '/api/v1', '/api/v1/namespaces/default/pods', '/api/v1/namespaces/default/configmaps', '/apis',
  '/apis/kubevirt.io/v1/namespaces/default/virtualmachines', '/apis/kubevirt.io/v1/namespaces/default/virtualmachineinstances/x',
  '/apis/subresources.kubevirt.io/v1/namespaces/default/virtualmachines/x/start',
  '/apis/subresources.kubevirt.io/v1/namespaces/default/virtualmachineinstances/x/vnc',
  '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', '/apis/authentication.k8s.io/v1/selfsubjectreviews',
  '/apis/authentication.k8s.io/v1/tokenreviews', '/openapi/v2', '/openapi/v3', '/metrics', '/version', '/healthz',
  '/mutate-virtualmachines', '/validate-virtualmachines', '/v1/namespaces/default/virtualmachineinstances/x/console',
  '/api/kube/api/v1/nodes', '/api/kube/apis/kubevirt.io/v1/virtualmachines', '/vms', '/vms/default/x', '/login', '/ws/watch',
  '/api/metrics/default/x', '/api/session', '/_next/static/x.js',
];
const SEGMENTS = ['%', '%zz', '%C3', '%E2%9C%93', '%00', '..', '.', '', 'x'.repeat(300), 'namespaces', 'watch', 'status', '%2F', '~', '*', '@', 'a;b', '%25'];
const QUERIES = ['', '?watch=true&timeoutSeconds=1', '?labelSelector=%', '?fieldSelector=metadata.name%3D%3D', '?limit=-1', '?limit=abc', '?continue=%%%',
  '?dryRun=All', '?fieldManager=' + 'm'.repeat(200), '?resourceVersion=-5', '?x=%', '?timeoutSeconds=0', '?propagationPolicy=Nope'];
const DESTRUCTIVE = new Set(['PUT', 'PATCH', 'DELETE']);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'CONNECTX'];
const CONTENT_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/cbor', 'application/merge-patch+json',
  'application/json-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml', 'text/plain', 'garbage/%%', ';;;', ''];
const ACCEPTS = ['application/json', '*/*', 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/vnd.kubernetes.protobuf', 'text/html', 'x/y;;', ''];

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const PROTO_MAGIC = Buffer.from('k8s\0', 'binary');
const BODIES: fc.Arbitrary<Buffer | undefined>[] = [
  fc.constant(undefined),
  fc.constantFrom(...['{', '{"apiVersion":', '[]', 'null', '"x"', '1e400', '{"metadata":[]}', '{"kind":1,"apiVersion":{}}', '{"spec":{"runStrategy":7}}',
    `{"a":${deep(12_000)}}`, deep(50_000), 'a: [', 'a: &x [*x]', '- - - - -', '\u0000\u0001', '{"metadata":{"name":"%%"}}'].map((s) => Buffer.from(s))),
  fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.from(a)),
  fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.concat([PROTO_MAGIC, Buffer.from(a)])),
  fc.string({ maxLength: 200 }).map((s) => Buffer.from(s)),
];

const path = fc.tuple(fc.constantFrom(...PREFIXES), fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 3 }), fc.constantFrom(...QUERIES))
  .map(([p, segs, q]) => `${p}${segs.length ? '/' + segs.join('/') : ''}${q}`.replace(/^\/\//, '/%2F/'));

const framed: fc.Arbitrary<FramedRequest> = fc.record({
  method: fc.constantFrom(...METHODS),
  path,
  contentType: fc.constantFrom(...CONTENT_TYPES),
  accept: fc.constantFrom(...ACCEPTS),
  body: fc.oneof(...BODIES),
  identity: fc.constantFrom<Identity>('none', 'viewer', 'admin', 'garbage'),
  upgrade: fc.boolean(),
}).map(({ method: drawn, path: p, contentType, accept, body, identity, upgrade }) => {
  // the admin may legitimately delete or rewrite the cluster itself (every node, the kubevirt
  // namespace); its requests stay non-destructive so what is measured is robustness, not that
  const method = identity === 'admin' && DESTRUCTIVE.has(drawn) ? 'GET' : drawn;
  const headers: Record<string, string> = {};
  if (contentType) headers['content-type'] = contentType;
  if (accept) headers.accept = accept;
  if (upgrade) Object.assign(headers, { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' });
  return { kind: 'framed' as const, method, path: p, headers, body, identity };
});

const RAW_TARGETS = ['/%', '//[', '//x:99999/', '/\u0000', '/ /', '*', 'http://[', '/' + 'a'.repeat(20_000), '/api/v1/%ff%fe', '/\u00e9\u00e8', '?', '/#frag'];
const raw: fc.Arbitrary<RawRequest> = fc.record({
  method: fc.constantFrom('GET', 'POST', 'G E T', '', 'PUT\u0000'),
  target: fc.constantFrom(...RAW_TARGETS),
  version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/9.9', ''),
  headers: fc.constantFrom(
    'Host: x\r\n', 'Host: x\r\nContent-Length: abc\r\n', 'Host: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n',
    'Host: x\r\nTransfer-Encoding: chunked\r\n', `Host: x\r\nX-Big: ${'b'.repeat(40_000)}\r\n`, 'Host: x\r\nbad header\r\n', '',
    'Host: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n',
  ),
  body: fc.constantFrom('', 'abc', 'zz\r\nnot-chunk\r\n', '0\r\n\r\n'),
}).map(({ method, target, version, headers, body }) => ({ kind: 'raw' as const, bytes: Buffer.from(`${method} ${target} ${version}\r\n${headers}Connection: close\r\n\r\n${body}`, 'latin1') }));

/** `count` requests, about one in twenty raw, reproducible from `seed` */
export function sampleFuzzRequests(count: number, seed: number): FuzzRequest[] {
  const rawCount = Math.ceil(count / 20);
  const out: FuzzRequest[] = [...fc.sample(raw, { numRuns: rawCount, seed })];
  const batch = 5000;
  for (let i = 0; out.length < count; i++) out.push(...fc.sample(framed, { numRuns: Math.min(batch, count - out.length), seed: seed + i + 1 }));
  return fc.sample(fc.shuffledSubarray(out, { minLength: out.length, maxLength: out.length }), { numRuns: 1, seed })[0];
}
