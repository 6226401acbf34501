import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPKI } from './admission/testing/test-pki';
import { startTestServer, type TestServer } from './testing/test-server';

let t: TestServer;
let backend: Server;
const SUB = '/apis/subresources.kubevirt.io/v1/namespaces/default/virtualmachines/vm1';

beforeAll(async () => {
  const pki = createTestPKI(['virt-api.kubevirt.svc']);
  backend = createServer({ cert: pki.certPem, key: pki.keyPem }, (req, res) => {
    res.writeHead(202, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ url: req.url, user: req.headers['x-remote-user'] }));
  });
  await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
  const port = (backend.address() as AddressInfo).port;
  t = await startTestServer({ crdDir: '/nonexistent' });
  await t.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kubevirt' } });
  await t.call('POST', '/api/v1/namespaces/kubevirt/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'virt-api' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port }] }] });
  const svc = await t.call('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
    apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1.subresources.kubevirt.io' },
    spec: { group: 'subresources.kubevirt.io', version: 'v1', service: { namespace: 'kubevirt', name: 'virt-api', port }, caBundle: pki.caBundle, groupPriorityMinimum: 1000, versionPriority: 15 },
  });
  expect(svc.status).toBe(201);
});
afterAll(async () => {
  await t?.close();
  await new Promise((r) => backend.close(r));
});

describe('aggregated APIs', () => {
  it('lists the aggregated group in discovery', async () => {
    const groups = (await t.call('GET', '/apis')).body.groups.map((g: { name: string }) => g.name);
    expect(groups).toContain('subresources.kubevirt.io');
  });

  it.each([
    ['admin', 'PUT', `${SUB}/start`, 202],
    ['viewer', 'PUT', `${SUB}/start`, 403],
    ['anonymous', 'PUT', `${SUB}/start`, 401],
  ])('%s %s …/start → %i', async (who, method, path, status) => {
    const token = who === 'admin' ? undefined : who === 'viewer' ? t.srv.viewerToken : null;
    const r = await t.call(method, path, {}, { token });
    expect(r.status).toBe(status);
    if (status === 202) expect(r.body).toEqual({ url: `${SUB}/start`, user: 'admin' });
    else expect(r.body.kind).toBe('Status');
  });
});
