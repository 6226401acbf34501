import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubernetesObject } from '@kubernetes/client-node';
import { keyOf } from '../resources';

/**
 * A tiny list/watch endpoint for one collection, for informer tests that need to inject what a
 * real API server does rarely: watch connections dropping, 410 Gone, failing requests.
 */
export async function startFakeListWatchServer(path: string) {
  let rv = 0;
  const objects = new Map<string, KubernetesObject>();
  const watchers = new Set<ServerResponse>();
  const history: { rv: number; line: string }[] = [];
  let failures = 0;
  let lists = 0;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== path) return void res.writeHead(404).end();
    if (failures > 0) {
      failures--;
      return void res.writeHead(500).end('{"kind":"Status","code":500}');
    }
    if (url.searchParams.get('watch') !== 'true') {
      lists++;
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: String(rv) }, items: [...objects.values()] }));
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    const from = Number(url.searchParams.get('resourceVersion') || rv);
    for (const h of history) if (h.rv > from) res.write(h.line);
    watchers.add(res);
    res.on('close', () => watchers.delete(res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const send = (type: string, object: unknown, record = true) => {
    const line = JSON.stringify({ type, object }) + '\n';
    if (record) history.push({ rv, line });
    for (const w of watchers) w.write(line);
  };

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    watcherCount: () => watchers.size,
    listCount: () => lists,
    /** Create or update, notifying open watches. */
    put(obj: KubernetesObject) {
      const key = keyOf(obj);
      const type = objects.has(key) ? 'MODIFIED' : 'ADDED';
      const stored = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++rv) } };
      objects.set(key, stored);
      send(type, stored);
    },
    /** Change the store without telling watchers (what a client misses while disconnected). */
    putSilently(obj: KubernetesObject) {
      objects.set(keyOf(obj), { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++rv) } });
    },
    removeSilently(key: string) {
      objects.delete(key);
      rv++;
    },
    /** Send 410 Gone on open watches and close them (compaction). */
    expireWatches() {
      history.length = 0;
      send('ERROR', { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' }, false);
      for (const w of watchers) w.end();
    },
    dropWatches() {
      for (const w of watchers) w.destroy();
    },
    failNextRequests(n: number) {
      failures = n;
    },
    close: () => new Promise<void>((r) => {
      for (const w of watchers) w.destroy();
      server.close(() => r());
    }),
  };
}
