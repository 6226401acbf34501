import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { MAX_REQUEST_BODY_BYTES } from './http-io';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(async () => { await t?.close(); });

const VMS = '/apis/kubevirt.io/v1/namespaces/default/virtualmachines';
const CMS = '/api/v1/namespaces/default/configmaps';
const deepJson = (n: number) => '['.repeat(n) + ']'.repeat(n);

it.each([
  ['a VM nested 20,000 deep', VMS, 'application/json', `{"apiVersion":"kubevirt.io/v1","kind":"VirtualMachine","metadata":{"name":"d"},"spec":{"x":${deepJson(20_000)}}}`],
  ['a ConfigMap nested 200,000 deep', CMS, 'application/json', `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d"},"data":${deepJson(200_000)}}`],
  ['a merge patch nested 20,000 deep', `${VMS}/x`, 'application/merge-patch+json', `{"a":${deepJson(20_000)}}`],
  ['YAML nested 20,000 deep', CMS, 'application/yaml', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
])('%s is a 400, never a 500', async (_name, path, contentType, body) => {
  const r = await t.call(path.endsWith('/x') ? 'PATCH' : 'POST', path, body, { contentType });
  expect(r.status).toBe(400);
  expect(r.body.message).toMatch(/^error decoding (JSON|YAML): /);
});

it('a body over 3 MiB is a 413 with kube\'s message, and the server keeps answering', async () => {
  const big = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { a: 'x'.repeat(MAX_REQUEST_BODY_BYTES) } });
  const r = await t.call('POST', CMS, big);
  expect(r.status).toBe(413);
  expect(r.body.message).toBe('Request entity too large: limit is 3145728');
  expect((await t.call('GET', '/healthz')).status).toBe(200);
});

it('a body just under the limit is accepted', async () => {
  const ok = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ok' }, data: { a: 'x'.repeat(1024 * 1024) } });
  expect((await t.call('POST', CMS, ok)).status).toBe(201);
});
