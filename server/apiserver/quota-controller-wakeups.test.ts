/**
 * The quota controller against a real API server: writes of kinds no quota counts (Events) do
 * not make it recount the namespace; a Pod does. Its recounts are seen as lists of the
 * namespace's Pods through the store (Event admission never lists Pods: no quota counts Events).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectPrefix } from './rest/codec/object-codec';
import { createMemoryStore } from './store/memory-store';
import type { Store } from './store/types';
import { startTestServer, type TestServer } from './testing/test-server';

const NS = 'rq-quiet';
const podPrefix = objectPrefix({ group: '', resource: 'pods', namespaced: true }, NS);
let podLists = 0;

function countingStore(): Store {
  const inner = createMemoryStore();
  return Object.assign(Object.create(inner) as Store, {
    list: (prefix: string, opts?: Parameters<Store['list']>[1]) => { if (prefix === podPrefix) podLists++; return inner.list(prefix, opts); },
  });
}

let t: TestServer;
beforeAll(async () => { t = await startTestServer({ storeFactory: countingStore }); });
afterAll(async () => { await t?.close(); });

async function quotaStatus(want: (s: { hard?: Record<string, string>; used?: Record<string, string> }) => boolean) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await t.call('GET', `/api/v1/namespaces/${NS}/resourcequotas/pods`);
    if (want(r.body.status ?? {})) return;
    if (Date.now() > deadline) throw new Error(`quota status never matched: ${JSON.stringify(r.body.status)}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

const event = (i: number) => ({
  apiVersion: 'v1', kind: 'Event', metadata: { name: `e${i}` }, involvedObject: { kind: 'Pod', namespace: NS, name: 'p' },
  reason: 'Tested', message: `event ${i}`, type: 'Normal', source: { component: 'test' },
});

describe('the quota controller wakes only for kinds its quotas count', () => {
  beforeAll(async () => {
    expect((await t.call('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
    const q = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'pods' }, spec: { hard: { pods: '5' } } };
    expect((await t.call('POST', `/api/v1/namespaces/${NS}/resourcequotas`, q)).status).toBe(201);
    await quotaStatus((s) => s.used?.pods === '0');
  });

  it('30 Events in a namespace whose quota counts Pods cause no recount', async () => {
    await new Promise((res) => setTimeout(res, 200)); // let the setup's writes settle
    podLists = 0;
    for (let i = 0; i < 30; i++) expect((await t.call('POST', `/api/v1/namespaces/${NS}/events`, event(i))).status).toBe(201);
    // a quota write after them: once its status shows, the watch has delivered every Event before it
    const r = await t.call('PATCH', `/api/v1/namespaces/${NS}/resourcequotas/pods`, { spec: { hard: { pods: '6' } } }, { contentType: 'application/merge-patch+json' });
    expect(r.status).toBe(200);
    await quotaStatus((s) => s.hard?.pods === '6');
    // the quota write's recount and its status update's fresh count: no more
    expect(podLists).toBeLessThanOrEqual(2);
  });

  it('the echo of its own status write makes no recount', async () => {
    podLists = 0;
    const r = await t.call('PATCH', `/api/v1/namespaces/${NS}/resourcequotas/pods`, { spec: { hard: { pods: '7' } } }, { contentType: 'application/merge-patch+json' });
    expect(r.status).toBe(200);
    await quotaStatus((s) => s.hard?.pods === '7');
    // a fence: a quota written after that status write. The watch delivers in order and the controller
    // works one namespace at a time, first come first served: once the fence's status shows, the
    // status write's echo has been handled.
    expect((await t.call('POST', '/api/v1/namespaces', { metadata: { name: 'rq-fence' } })).status).toBe(201);
    const fence = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'f' }, spec: { hard: { pods: '1' } } };
    expect((await t.call('POST', '/api/v1/namespaces/rq-fence/resourcequotas', fence)).status).toBe(201);
    for (let i = 0; (await t.call('GET', '/api/v1/namespaces/rq-fence/resourcequotas/f')).body.status?.used?.pods !== '0'; i++) {
      expect(i).toBeLessThan(500);
      await new Promise((res) => setTimeout(res, 20));
    }
    // the quota write's recount and its status update's fresh count; none for the echo
    expect(podLists).toBe(2);
  });

  it('a Pod still wakes it: status.used follows', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'kubevirt-ts:latest' }] } };
    expect((await t.call('POST', `/api/v1/namespaces/${NS}/pods`, pod)).status).toBe(201);
    await quotaStatus((s) => s.used?.pods === '1');
  });
});
