import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/test-server';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(async () => { await t?.close(); });

const vm = (name: string) => ({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name, namespace: 'default' }, spec: { runStrategy: 'Halted', template: { spec: { domain: { devices: {} } } } } });
const path = (name: string) => `/apis/kubevirt.io/v1/namespaces/default/virtualmachines/${name}`;

it('a PUT of a custom resource without metadata.resourceVersion is refused as kube refuses it', async () => {
  expect((await t.call('POST', '/apis/kubevirt.io/v1/namespaces/default/virtualmachines', vm('a'))).status).toBe(201);
  const r = await t.call('PUT', path('a'), vm('a'));
  expect(r.status).toBe(422);
  expect(r.body.reason).toBe('Invalid');
  expect(r.body.message).toBe('VirtualMachine.kubevirt.io "a" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
  expect(r.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'metadata.resourceVersion', message: 'Invalid value: 0x0: must be specified for an update' }]);
});

it('with the resourceVersion it replaces, the PUT succeeds', async () => {
  const cur = await t.call('GET', path('a'));
  const next = { ...vm('a'), metadata: { ...vm('a').metadata, resourceVersion: cur.body.metadata.resourceVersion, labels: { x: 'y' } } };
  const r = await t.call('PUT', path('a'), next);
  expect(r.status).toBe(200);
  expect(r.body.metadata.labels).toEqual({ x: 'y' });
});

it('a built-in kind (ConfigMap) still allows an unconditional update, as kube does', async () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { a: '1' } };
  expect((await t.call('POST', '/api/v1/namespaces/default/configmaps', cm)).status).toBe(201);
  expect((await t.call('PUT', '/api/v1/namespaces/default/configmaps/c', { ...cm, data: { a: '2' } })).status).toBe(200);
});
