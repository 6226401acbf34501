import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { Informer } from './informer';
import { makeKubeConfig } from './kubeconfig';
import { indexByNodeName } from './object-store';
import { startFakeListWatchServer } from './testing/fake-list-watch-server';
import { waitFor } from './testing/wait-for';

const PATH = '/api/v1/pods';
const pod = (name: string, nodeName?: string): V1Pod => ({ metadata: { name, namespace: 'ns', uid: `u-${name}` }, spec: { nodeName, containers: [] } });

describe('Informer (against a fake list/watch endpoint)', () => {
  let server: Awaited<ReturnType<typeof startFakeListWatchServer>>;
  let stop: AbortController;
  let informer: Informer<V1Pod>;
  const seen: string[] = [];

  beforeEach(async () => {
    server = await startFakeListWatchServer(PATH);
    stop = new AbortController();
    seen.length = 0;
    informer = new Informer<V1Pod>({ kc: makeKubeConfig({ server: server.url }), path: PATH, indexers: { node: indexByNodeName } });
    informer.on({
      add: (p) => seen.push(`add:${p.metadata?.name}`),
      update: (o, p) => seen.push(`update:${p.metadata?.name}:${o.spec?.nodeName ?? '-'}->${p.spec?.nodeName ?? '-'}`),
      delete: (p) => seen.push(`delete:${p.metadata?.name}`),
    });
  });
  afterEach(async () => {
    stop.abort();
    await server.close();
  });

  it('syncs the initial list, then follows the watch with old and new objects', async () => {
    server.put(pod('a'));
    expect(informer.hasSynced()).toBe(false);
    void informer.run(stop.signal);
    expect(await informer.waitForSync(stop.signal)).toBe(true);
    expect(informer.get('ns/a')?.kind).toBe('Pod'); // list items get their kind back
    await waitFor(() => server.watcherCount() === 1);
    server.put(pod('a', 'node-1'));
    await waitFor(() => informer.byIndex('node', 'node-1').length === 1);
    expect(seen).toEqual(['add:a', 'update:a:-->node-1']);
  });

  it('relists after 410 Gone and reports what changed while it was away', async () => {
    server.put(pod('a'));
    server.put(pod('b'));
    void informer.run(stop.signal);
    await informer.waitForSync();
    await waitFor(() => server.watcherCount() === 1);
    server.removeSilently('ns/a');
    server.putSilently(pod('c'));
    server.expireWatches();
    await waitFor(() => informer.get('ns/c') !== undefined && informer.get('ns/a') === undefined, 5000, 'relist');
    expect(server.listCount()).toBe(2);
    expect(seen).toEqual(['add:a', 'add:b', 'delete:a', 'add:c']);
  });

  it('keeps retrying with backoff while the server fails, then syncs', async () => {
    server.put(pod('a'));
    server.failNextRequests(3);
    void informer.run(stop.signal);
    expect(await informer.waitForSync(AbortSignal.timeout(10_000))).toBe(true);
    expect(informer.list().map((p) => p.metadata?.name)).toEqual(['a']);
  });

  it('re-watches from its resourceVersion after the connection drops, without a relist', async () => {
    void informer.run(stop.signal);
    await informer.waitForSync();
    await waitFor(() => server.watcherCount() === 1);
    server.dropWatches();
    server.put(pod('z')); // missed by the dropped watch; the re-watch from the last resourceVersion replays it
    await waitFor(() => informer.get('ns/z'));
    expect(server.listCount()).toBe(1);
  });

  it('stops watching when its signal aborts', async () => {
    void informer.run(stop.signal);
    await informer.waitForSync();
    await waitFor(() => server.watcherCount() === 1);
    stop.abort();
    await waitFor(() => server.watcherCount() === 0, 5000, 'watch closed');
  });

  it('shares one list and watch with the other informers of its KubeConfig on the same collection; a late one gets the objects as adds', async () => {
    server.put(pod('a'));
    const kc = makeKubeConfig({ server: server.url });
    const first = new Informer<V1Pod>({ kc, path: PATH });
    const second = new Informer<V1Pod>({ kc, path: PATH, indexers: { node: indexByNodeName } });
    const other = new Informer<V1Pod>({ kc, path: PATH, labelSelector: 'app=x' }); // other selector: its own watch
    const secondSaw: string[] = [];
    second.on({ add: (p) => secondSaw.push(`add:${p.metadata?.name}`), update: (_o, p) => secondSaw.push(`update:${p.metadata?.name}`) });
    const stopFirst = new AbortController();
    const firstRun = first.run(stopFirst.signal);
    await first.waitForSync();
    await waitFor(() => server.watcherCount() === 1);
    void second.run(stop.signal);
    expect(await second.waitForSync(AbortSignal.timeout(1000))).toBe(true);
    expect(secondSaw).toEqual(['add:a']);
    server.put(pod('a', 'node-1'));
    await waitFor(() => second.byIndex('node', 'node-1').length === 1 && first.get('ns/a')?.spec?.nodeName === 'node-1');
    expect(server.listCount()).toBe(1);
    expect(server.watcherCount()).toBe(1);
    void other.run(stop.signal);
    await waitFor(() => server.watcherCount() === 2);
    stopFirst.abort();
    await firstRun; // the second still runs: the shared watch stays
    server.put(pod('b'));
    await waitFor(() => second.get('ns/b'));
    expect(first.get('ns/b')).toBeUndefined();
    expect(secondSaw).toEqual(['add:a', 'update:a', 'add:b']);
    stop.abort();
    await waitFor(() => server.watcherCount() === 0, 5000, 'watches closed');
  });

  it('shares the watch with informers of another KubeConfig of the same server and credentials, not of other credentials', async () => {
    const a = new Informer<V1Pod>({ kc: makeKubeConfig({ server: server.url, token: 't1' }), path: PATH });
    const b = new Informer<V1Pod>({ kc: makeKubeConfig({ server: server.url, token: 't1' }), path: PATH });
    const c = new Informer<V1Pod>({ kc: makeKubeConfig({ server: server.url, token: 't2' }), path: PATH });
    void a.run(stop.signal);
    void b.run(stop.signal);
    await a.waitForSync();
    await b.waitForSync();
    await waitFor(() => server.watcherCount() === 1);
    void c.run(stop.signal);
    await waitFor(() => server.watcherCount() === 2);
    expect(server.listCount()).toBe(2);
  });
});
