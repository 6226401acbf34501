import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { jsonClient, startChildServer, type ChildServer } from './testing/child-server';

const TOTAL = 1000;
const CONCURRENCY = 8;
const KILL_AFTER = 300;
const dataDir = mkdtempSync(join(tmpdir(), 'kv-crash-'));
let server: ChildServer | undefined;

afterAll(() => {
  server?.proc.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

it('keeps every acknowledged create across kill -9, and resourceVersions keep increasing', async () => {
  server = await startChildServer(dataDir);
  const client = jsonClient(server, CONCURRENCY);
  const acked = new Map<string, number>();
  let next = 0;
  let killed = false;
  const worker = async () => {
    while (next < TOTAL) {
      const name = `obj-${next++}`;
      try {
        const r = await client.call('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { n: name } });
        if (r.status === 201) acked.set(name, Number(r.body.metadata.resourceVersion));
      } catch {
        return;
      }
      if (acked.size >= KILL_AFTER && !killed) {
        killed = true;
        server!.proc.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  client.close();
  expect(killed).toBe(true);

  server = await startChildServer(dataDir);
  const after = jsonClient(server);
  const list = (await after.call('GET', '/api/v1/namespaces/default/configmaps')).body;
  const stored = new Set(list.items.map((c: { metadata: { name: string } }) => c.metadata.name));
  const missing = [...acked.keys()].filter((n) => !stored.has(n));
  expect(missing).toEqual([]);
  const maxAcked = Math.max(...acked.values());
  const created = (await after.call('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-restart' } })).body;
  expect(Number(created.metadata.resourceVersion)).toBeGreaterThan(maxAcked);
  after.close();
  server.proc.kill('SIGTERM');
}, 60_000);
