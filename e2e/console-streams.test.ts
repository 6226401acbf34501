/**
 * Console streams and screenshots of a real guest through the API server (aggregation → virt-api
 * → the node's virt-handler): VNC speaks RFB, the serial console shows the login prompt, both
 * with subprotocol plain.kubevirt.io; the viewer gets 403; a foreign Origin is refused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callAction, isRunning } from './support/lifecycle-table';
import { callRest, subresource, until } from './support/rest';
import { openStream, PLAIN_SUBPROTOCOL, readUntil } from './support/streams';
import { createVM, demoVM, NS, readState } from './support/vm-fixtures';
import { criLogText } from '../server/kube/cri-log';

const VM = 'streams';
const vmiPath = (sub: string) => subresource(NS, 'virtualmachineinstances', VM, sub);
let c: LifecycleCluster;

beforeAll(async () => {
  c = await startLifecycleCluster({ nodes: 1 });
  await createVM(c.admin, demoVM(VM, { runStrategy: 'Always' }));
  await until(`${VM} Running`, async () => isRunning(await readState(c.admin, VM)), 150_000);
});
afterAll(async () => { await c?.stop(); });

describe('streams through the API server', () => {
  it('VNC answers RFB 003.008 with subprotocol plain.kubevirt.io', async () => {
    const opened = await openStream(c.admin, vmiPath('vnc'));
    expect(opened.status, opened.status ? opened.body : '').toBeUndefined();
    const ws = opened.ws!;
    expect(ws.protocol).toBe(PLAIN_SUBPROTOCOL);
    const greeting = await readUntil(ws, (t) => t.length >= 12, { timeoutMs: 30_000 });
    ws.close();
    expect(greeting.slice(0, 12)).toBe('RFB 003.008\n');
  });

  it('a console opened 10 s after boot shows what the guest printed before it, without a keystroke', async () => {
    await new Promise((r) => setTimeout(r, 10_000));
    const opened = await openStream(c.admin, vmiPath('console'));
    const ws = opened.ws!;
    const text = await readUntil(ws, (t) => / login: /.test(t), { timeoutMs: 3_000 });
    ws.close();
    expect(text).toMatch(/\S+ login: /);
    // and the launcher keeps it in the pod's guest-console-log file (bounded)
    const vmi = (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/${VM}`)).body;
    const pods = (await callRest(c.admin, 'GET', `/api/v1/namespaces/${NS}/pods?labelSelector=${encodeURIComponent(`kubevirt.io/created-by=${vmi.metadata.uid}`)}`)).body.items;
    const file = join(c.cluster.dataDir, 'nodes', pods[0].spec.nodeName, 'pods', pods[0].metadata.uid, 'guest-console-log.log');
    expect(criLogText(readFileSync(file))).toMatch(/\S+ login: /);
    // and it is the launcher Pod's guest-console-log log, each line with the time the launcher got it
    const logPath = `/api/v1/namespaces/${NS}/pods/${pods[0].metadata.name}/log?container=guest-console-log`;
    const stamped = (await callRest(c.admin, 'GET', `${logPath}&timestamps=true`)).raw.toString('utf8').split('\n').filter(Boolean);
    const stamp = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z) /;
    expect(stamped.every((l) => stamp.test(l))).toBe(true);
    const firstAt = Date.parse(stamp.exec(stamped[0])![1]);
    expect(firstAt).toBeGreaterThanOrEqual(Date.parse(pods[0].metadata.creationTimestamp) - 1000);
    expect(stamped.some((l) => / login: /.test(l))).toBe(true);
    // the boot is more than 10 s old: --since=5s leaves it out
    const recent = (await callRest(c.admin, 'GET', `${logPath}&sinceSeconds=5`)).raw.toString('utf8');
    expect(recent).not.toContain('Linux version');
  });

  it('the serial console shows the login prompt after a newline', async () => {
    const opened = await openStream(c.admin, vmiPath('console'));
    const ws = opened.ws!;
    expect(ws.protocol).toBe(PLAIN_SUBPROTOCOL);
    const text = await readUntil(ws, (t) => / login: /.test(t), { timeoutMs: 90_000, poke: Buffer.from('\r'), pokeMs: 1500 });
    ws.close();
    expect(text).toMatch(/\S+ login: /);
  });

  it('vnc/screenshot is a PNG of the screen', async () => {
    const shot = await callRest(c.admin, 'GET', vmiPath('vnc/screenshot'));
    expect(shot.status, shot.raw.toString('utf8', 0, 300)).toBe(200);
    expect(shot.contentType).toBe('image/png');
    expect(shot.raw.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const [width, height] = [shot.raw.readUInt32BE(16), shot.raw.readUInt32BE(20)];
    process.stderr.write(`screenshot: ${width}×${height} PNG, ${shot.raw.length} bytes\n`);
    expect(width).toBeGreaterThanOrEqual(640);
    expect(height).toBeGreaterThanOrEqual(400);
  });
});

describe('who may', () => {
  it.each([
    ['start', () => callAction(c.viewer, VM, 'start').then((r) => r.status)],
    ['vnc', () => openStream(c.viewer, vmiPath('vnc')).then((o) => o.status ?? (o.ws!.close(), 101))],
    ['console', () => openStream(c.viewer, vmiPath('console')).then((o) => o.status ?? (o.ws!.close(), 101))],
    ['vnc/screenshot', () => callRest(c.viewer, 'GET', vmiPath('vnc/screenshot')).then((r) => r.status)],
  ])('the view-only user gets 403 on %s', async (_n, attempt) => {
    expect(await attempt()).toBe(403);
  });

  it.each([
    ['a foreign Origin is refused', () => 'https://evil.example', 403],
    ['the console\'s own Origin is let in', () => c.consoleOrigin, 101],
  ])('%s', async (_n, origin, want) => {
    const opened = await openStream(c.admin, vmiPath('vnc'), { origin: origin() });
    opened.ws?.close();
    expect(opened.status ?? 101, opened.status ? opened.body : '').toBe(want);
  });
});
