/** status.qosClass of a created Pod, against a real API server (KubeVirt's VMI copies it: conformance test_id 3110–3112). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/test-server';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(async () => { await t?.close(); });

const pod = (name: string, resources: object) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'kubevirt-ts:latest', resources }] } });

describe('a Pod gets its QoS class at creation', () => {
  it.each([
    ['burstable', { requests: { memory: '64Mi' } }, 'Burstable'],
    ['guaranteed', { requests: { cpu: '1', memory: '64M' }, limits: { cpu: '1', memory: '64M' } }, 'Guaranteed'],
    ['limits-only', { limits: { cpu: '1', memory: '128Mi' } }, 'Guaranteed'],
    ['best-effort', {}, 'BestEffort'],
  ])('%s', async (name, resources, want) => {
    const r = await t.call('POST', '/api/v1/namespaces/default/pods', pod(name, resources));
    expect(r.status).toBe(201);
    expect(r.body.status.qosClass).toBe(want);
  });
});
