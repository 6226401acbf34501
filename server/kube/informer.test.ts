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
});
