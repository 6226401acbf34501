import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { eventFromCore, eventToCore } from './event-conversion';

describe('event conversion', () => {
  it.each([
    [{ metadata: { name: 'e' }, involvedObject: { kind: 'Pod', name: 'p' }, message: 'hi', reason: 'Started', count: 2, source: { component: 'kubelet' } },
      { metadata: { name: 'e' }, regarding: { kind: 'Pod', name: 'p' }, note: 'hi', reason: 'Started', deprecatedCount: 2, deprecatedSource: { component: 'kubelet' }, eventTime: null }],
  ])('core %j ⇄ events.k8s.io', (core, ev) => {
    expect(eventFromCore(core)).toEqual(ev);
    expect(eventToCore(ev)).toEqual(core);
  });
});

describe('events served in both groups from one storage', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({ crdDir: '/nonexistent' }); });
  afterAll(async () => { await t?.close(); });

  it('a core event is listed by events.k8s.io/v1 and the other way round', async () => {
    await t.call('POST', '/api/v1/namespaces/default/events', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1' }, involvedObject: { kind: 'Pod', name: 'p1' }, reason: 'Started', message: 'core', type: 'Normal' });
    await t.call('POST', '/apis/events.k8s.io/v1/namespaces/default/events', { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e2' }, regarding: { kind: 'Pod', name: 'p1' }, reason: 'Killing', note: 'v1', type: 'Normal', eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'kv', reportingInstance: 'kv-1', action: 'Kill' });
    const v1: { apiVersion: string; metadata: { name: string }; note: string; regarding: { name: string } }[] = (await t.call('GET', '/apis/events.k8s.io/v1/namespaces/default/events')).body.items;
    expect(v1.map((e) => [e.apiVersion, e.metadata.name, e.note, e.regarding.name])).toEqual([['events.k8s.io/v1', 'e1', 'core', 'p1'], ['events.k8s.io/v1', 'e2', 'v1', 'p1']]);
    const core: { apiVersion: string; metadata: { name: string }; message: string }[] = (await t.call('GET', '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dp1')).body.items;
    expect(core.map((e) => [e.apiVersion, e.metadata.name, e.message])).toEqual([['v1', 'e1', 'core'], ['v1', 'e2', 'v1']]);
  });
});
