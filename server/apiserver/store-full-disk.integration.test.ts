/**
 * The store on a full disk (a 24 MiB tmpfs under the data dir): writes are refused with a clear 507
 * while reads and /healthz keep answering; once space is freed writes work again, and after a
 * restart every write that was acknowledged is there.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/test-server';

const root = mkdtempSync(join(tmpdir(), 'kv-full-disk-'));
const disk = join(root, 'disk');
const mounted = process.getuid?.() === 0;
let t: TestServer | undefined;

beforeAll(() => {
  if (!mounted) return;
  mkdirSync(disk);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', disk]);
});
afterAll(async () => {
  await t?.close();
  if (mounted) execFileSync('umount', ['--lazy', disk]);
  rmSync(root, { recursive: true, force: true });
});

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { blob: 'x'.repeat(100_000) } });

it.skipIf(!mounted)('a full disk refuses writes with 507 and loses nothing acknowledged; freeing space lets writes through again', async () => {
  const dataDir = join(disk, 'data');
  const filler = join(disk, 'filler');
  writeFileSync(filler, Buffer.alloc(12 << 20)); // what the user frees later
  t = await startTestServer({ memory: false, dataDir });
  const acknowledged: string[] = [];
  let refused: { status: number; body: { reason?: string; message?: string } } | undefined;
  for (let i = 0; i < 400 && !refused; i++) {
    const r = await t.call('POST', '/api/v1/namespaces/default/configmaps', cm(`cm-${i}`));
    if (r.status === 201) acknowledged.push(`cm-${i}`);
    else refused = r;
  }
  expect(acknowledged.length).toBeGreaterThan(3);
  expect(refused).toMatchObject({ status: 507, body: { reason: 'InsufficientStorage' } });
  expect(refused!.body.message).toMatch(/^the API server's store cannot write: database or disk is full; free space on the disk of its data dir and retry/);
  // reads and health are unaffected
  expect((await t.call('GET', `/api/v1/namespaces/default/configmaps/${acknowledged[0]}`)).status).toBe(200);
  expect((await t.call('GET', '/healthz')).status).toBe(200);

  rmSync(filler);
  const after = await t.call('POST', '/api/v1/namespaces/default/configmaps', cm('after-space'));
  expect(after.status).toBe(201);
  acknowledged.push('after-space');

  await t.close();
  t = await startTestServer({ memory: false, dataDir });
  const names = (await t.call('GET', '/api/v1/namespaces/default/configmaps')).body.items.map((i: { metadata: { name: string } }) => i.metadata.name);
  expect(names).toEqual(expect.arrayContaining(acknowledged));
}, 120_000);
