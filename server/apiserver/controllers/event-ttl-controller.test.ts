import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from '../testing/test-server';
import { lastSeen } from './event-ttl-controller';

let t: TestServer;
beforeAll(async () => { t = await startTestServer({ crdDir: '/nonexistent', eventTTLMs: 300 }); });
afterAll(async () => { await t?.close(); });

it.each([
  [{ lastTimestamp: '2026-01-01T00:00:10Z', metadata: { creationTimestamp: '2026-01-01T00:00:00Z' } }, Date.parse('2026-01-01T00:00:10Z')],
  [{ series: { lastObservedTime: '2026-01-01T00:01:00.000000Z' }, eventTime: '2026-01-01T00:00:00.000000Z' }, Date.parse('2026-01-01T00:01:00Z')],
  [{ metadata: {} }, 0],
])('lastSeen(%j)', (ev, ms) => { expect(lastSeen(ev)).toBe(ms); });

it('deletes events older than the TTL', async () => {
  const old = new Date(Date.now() - 10_000).toISOString();
  await t.call('POST', '/api/v1/namespaces/default/events', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'old' }, involvedObject: { kind: 'Pod', name: 'p' }, lastTimestamp: old });
  await waitFor(async () => (await t.call('GET', '/api/v1/namespaces/default/events/old')).status === 404, 5000, 'event expired');
});
