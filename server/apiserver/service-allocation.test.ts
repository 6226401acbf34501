import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/test-server';

const SVCS = '/api/v1/namespaces/default/services';
const dataDir = mkdtempSync(join(tmpdir(), 'kv-svc-alloc-'));
let t: TestServer | undefined;

const service = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } });

afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('Service allocation', () => {
  it('gives 40 concurrent creates 40 different cluster IPs and node ports', async () => {
    t = await startTestServer({ memory: false, dataDir });
    const created = await Promise.all(Array.from({ length: 40 }, (_, i) => t!.call('POST', SVCS, service(`s${i}`, { type: 'NodePort' }))));
    expect(created.map((r) => r.status)).toEqual(Array(40).fill(201));
    const ips = created.map((r) => r.body.spec.clusterIP);
    const ports = created.map((r) => r.body.spec.ports[0].nodePort);
    expect(new Set(ips).size).toBe(40);
    expect(new Set(ports).size).toBe(40);
    for (const ip of ips) expect(ip).toMatch(/^10\.96\.(\d+)\.(\d+)$/);
    expect(ips).not.toContain('10.96.0.1');
  });

  it('of 10 concurrent creates asking for one IP, exactly one gets it', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => t!.call('POST', SVCS, service(`same${i}`, { clusterIP: '10.96.0.200' }))));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(422)]);
  });

  it('a dry run allocates nothing for good', async () => {
    const dry = await t!.call('POST', `${SVCS}?dryRun=All`, service('dry', { clusterIP: '10.96.0.77' }));
    expect(dry.status).toBe(201);
    expect((await t!.call('POST', SVCS, service('wet', { clusterIP: '10.96.0.77' }))).status).toBe(201);
  });

  it('still knows what is taken after a restart, and frees an IP on delete', async () => {
    await t!.close();
    t = await startTestServer({ memory: false, dataDir });
    const kubernetes = await t.call('GET', `${SVCS}/kubernetes`);
    expect(kubernetes.body.spec).toMatchObject({ clusterIP: '10.96.0.1', ports: [{ port: 443, targetPort: t.srv.port }] });
    const ep = await t.call('GET', '/api/v1/namespaces/default/endpoints/kubernetes');
    expect(ep.body.subsets).toEqual([{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: t.srv.port, protocol: 'TCP' }] }]);
    const again = await t.call('POST', SVCS, service('again', { clusterIP: '10.96.0.77' }));
    expect(again.status).toBe(422);
    expect(again.body.message).toBe('Service "again" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.77"}: failed to allocate IP 10.96.0.77: provided IP is already allocated');
    expect(again.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.clusterIPs', message: 'Invalid value: []string{"10.96.0.77"}: failed to allocate IP 10.96.0.77: provided IP is already allocated' }]);
    expect((await t.call('DELETE', `${SVCS}/wet`)).status).toBe(200);
    expect((await t.call('POST', SVCS, service('again', { clusterIP: '10.96.0.77' }))).status).toBe(201);
  });

  it('refuses the network and broadcast addresses and out-of-range node ports', async () => {
    for (const ip of ['10.96.0.0', '10.96.255.255']) {
      const r = await t!.call('POST', SVCS, service(`edge-${ip.split('.')[3]}`, { clusterIP: ip }));
      expect(r.status).toBe(422);
      expect(r.body.message).toContain(`failed to allocate IP ${ip}: provided IP is not in the valid range. The range of valid IPs is 10.96.0.0/16`);
    }
    const low = await t!.call('POST', SVCS, service('low', { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] }));
    expect(low.body.message).toBe('Service "low" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767');
  });

  it('a headless Service takes no IP; turning ClusterIP into NodePort allocates a node port', async () => {
    const headless = await t!.call('POST', SVCS, service('headless', { clusterIP: 'None' }));
    expect(headless.body.spec.clusterIP).toBe('None');
    // virt-api's registration PUTs its headless Service again at every start
    const put = await t!.call('PUT', `${SVCS}/headless`, { ...service('headless', { clusterIP: 'None', ports: [{ name: 'https', port: 8443, protocol: 'TCP' }] }), metadata: { name: 'headless', resourceVersion: headless.body.metadata.resourceVersion } });
    expect(put.status).toBe(200);
    expect(put.body.spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'], ports: [{ name: 'https', port: 8443, targetPort: 8443 }] });
    const r = await t!.call('PATCH', `${SVCS}/s0`, { spec: { type: 'ClusterIP', ports: [{ port: 80 }] } }, { contentType: 'application/merge-patch+json' });
    expect(r.status).toBe(200);
    expect(r.body.spec.ports[0].nodePort).toBeUndefined();
    const back = await t!.call('PATCH', `${SVCS}/s0`, { spec: { type: 'NodePort' } }, { contentType: 'application/merge-patch+json' });
    expect(back.body.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
  });
});
