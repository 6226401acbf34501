import { afterEach, describe, expect, it } from 'vitest';
import type { MigrationInfo } from './protocol';
import { isAlive, startTestLauncher, tinyVMI, waitFor, type TestLauncher } from './test-launcher';

describe('live migration between two launchers on loopback', () => {
  const launchers: TestLauncher[] = [];
  afterEach(async () => { await Promise.all(launchers.splice(0).map((l) => l.stop())); });

  it('moves a running guest: source ends Migrated (exit 0), target runs; prints total time and downtime', async () => {
    const [source, target] = await Promise.all([startTestLauncher(), startTestLauncher()]);
    launchers.push(source, target);
    const vmi = tinyVMI({}, '99999999-2222-3333-4444-555555555555');
    const src = await source.client.request('sync', { vmi }, { timeoutMs: 20_000 });
    const { host, port } = await target.client.request('prepareIncoming', { vmi }, { timeoutMs: 20_000 });
    await expect(target.client.request('status')).resolves.toMatchObject({ state: 'incoming' });

    const infos: MigrationInfo[] = [];
    source.client.on('migration', (i) => infos.push(i));
    const started = Date.now();
    await source.client.request('migrate', { host, port, params: { downtimeMs: 300, bandwidthBytesPerSec: 1 << 30, allowAutoConverge: true } });
    expect(await source.exited).toBe(0);
    const wallMs = Date.now() - started;
    expect(source.termination()?.reason).toBe('Migrated');
    expect(isAlive(src.qemuPid)).toBe(false);
    await waitFor(async () => (await target.client.request('status')).state === 'running', 10_000, 'target running');

    const done = infos.find((i) => i.status === 'completed');
    expect(done).toBeDefined();
    process.stderr.write(`migration: total ${done?.totalTimeMs} ms, downtime ${done?.downtimeMs} ms, transferred ${done?.transferredBytes} B, wall ${wallMs} ms\n`);
    expect(done!.downtimeMs!).toBeLessThan(2000);
  });
});
