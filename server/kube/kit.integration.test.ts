import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConflict, isNotFound } from './api-errors';
import { makeKubeClients, mergePatch, toDeleteBody, type KubeClients } from './clients';
import { EventRecorder, EventTypeWarning } from './events';
import { Informer } from './informer';
import { indexByNodeName } from './object-store';
import { collectionPath, PodResource } from './resources';
import { startTestApiServer } from './testing/api-server';
import { waitFor } from './testing/wait-for';

const pod = (name: string): V1Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });

describe('controller kit against the embedded API server', () => {
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  const stop = new AbortController();

  beforeAll(async () => {
    api = await startTestApiServer();
    c = makeKubeClients(api.kc);
  });
  afterAll(async () => {
    stop.abort();
    await api?.stop();
  });

  it('informer lists, then sees creates, merge patches and deletes; the index follows spec.nodeName', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('before') });
    const inf = new Informer<V1Pod>({ kc: api.kc, path: collectionPath(PodResource), indexers: { node: indexByNodeName } });
    const deleted: string[] = [];
    inf.on({ delete: (p) => deleted.push(p.metadata!.name!) });
    void inf.run(stop.signal);
    expect(await inf.waitForSync(AbortSignal.timeout(10_000))).toBe(true);
    expect(inf.get('default/before')?.metadata?.uid).toBeTruthy();
    // plain JSON in the cache, as the server sent it (not Date objects)
    expect(typeof inf.get('default/before')?.metadata?.creationTimestamp).toBe('string');

    await c.core.createNamespacedPod({ namespace: 'default', body: pod('after') });
    await waitFor(() => inf.get('default/after'));
    await c.core.patchNamespacedPod({ namespace: 'default', name: 'after', body: { metadata: { labels: { extra: 'y' } } } }, mergePatch);
    await waitFor(() => inf.get('default/after')?.metadata?.labels?.extra === 'y');
    expect(inf.get('default/after')?.metadata?.labels?.app).toBe('x'); // merge, not replace

    await c.core.createNamespacedPodBinding({ namespace: 'default', name: 'after', body: { metadata: { name: 'after' }, target: { kind: 'Node', name: 'node-a' } } });
    await waitFor(() => inf.byIndex('node', 'node-a').length === 1);

    await c.core.deleteNamespacedPod({ namespace: 'default', name: 'before', gracePeriodSeconds: 0 });
    await waitFor(() => deleted.includes('before'));
  });

  it('a delete with a stale uid precondition is refused', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('guarded') });
    const err = await c.core.deleteNamespacedPod({ namespace: 'default', name: 'guarded', body: toDeleteBody({ uid: 'not-the-uid', gracePeriodSeconds: 0 }) }).catch((e) => e);
    expect(isConflict(err)).toBe(true);
    const missing = await c.core.readNamespacedPod({ namespace: 'default', name: 'nope' }).catch((e) => e);
    expect(isNotFound(missing)).toBe(true);
  });

  it('records events and aggregates repeats into count', async () => {
    const p = await c.core.readNamespacedPod({ namespace: 'default', name: 'guarded' });
    const rec = new EventRecorder(c.core, { component: 'test' });
    await rec.record({ ...p, apiVersion: 'v1', kind: 'Pod' }, EventTypeWarning, 'Tested', 'hello');
    await rec.record({ ...p, apiVersion: 'v1', kind: 'Pod' }, EventTypeWarning, 'Tested', 'hello');
    const list = await c.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=guarded' });
    const ev = list.items.find((e) => e.reason === 'Tested');
    expect(ev).toMatchObject({ type: 'Warning', message: 'hello', count: 2, involvedObject: { kind: 'Pod', name: 'guarded' }, source: { component: 'test' } });
  });
});
