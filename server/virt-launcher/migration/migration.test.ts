import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MigrationInfo } from '../protocol';
import { isAlive, startTestLauncher, tinyVMI, waitFor, type TestLauncher } from '../test-launcher';

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

  it('copies what was written to an emptyDisk to the target before the switch-over', async () => {
    const [source, target] = await Promise.all([startTestLauncher(), startTestLauncher()]);
    launchers.push(source, target);
    const vmi = tinyVMI({ volumes: [{ name: 'scratch', emptyDisk: { capacity: '16Mi' } }] }, '99999999-2222-3333-4444-666666666666');
    vmi.spec.domain.devices = { ...vmi.spec.domain.devices, disks: [{ name: 'scratch', disk: { bus: 'virtio' } }] };
    // the launcher keeps an existing disk file: this one already holds what "the guest wrote" (64 KiB of 0x5a at 1 MiB)
    const srcDisk = join(source.podDir, 'disks', 'scratch.qcow2');
    mkdirSync(join(source.podDir, 'disks'));
    execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', srcDisk, '16M']);
    execFileSync('qemu-io', ['-f', 'qcow2', '-c', 'write -P 0x5a 1M 64k', srcDisk]);
    await source.client.request('sync', { vmi }, { timeoutMs: 20_000 });
    const { host, port, nbdPort } = await target.client.request('prepareIncoming', { vmi }, { timeoutMs: 20_000 });
    expect(nbdPort).toBeGreaterThan(0);
    // a handler restarted before it recorded the answer asks again: the same ports, not "NBD server already running"
    expect(await target.client.request('prepareIncoming', { vmi }, { timeoutMs: 20_000 })).toEqual({ host, port, nbdPort });

    const infos: MigrationInfo[] = [];
    source.client.on('migration', (i) => infos.push(i));
    await source.client.request('migrate', { host, port, nbdPort, params: { downtimeMs: 300 } }, { timeoutMs: 30_000 });
    expect(await source.exited).toBe(0);
    await waitFor(async () => (await target.client.request('status')).state === 'running', 10_000, 'target running');
    await target.client.request('pause'); // stopping the VM flushes the target's image
    const holds = (pattern: string) => { // qemu-io exits 1 when the pattern does not match
      try { execFileSync('qemu-io', ['-U', '-r', '-f', 'qcow2', '-c', `read -P ${pattern} 1M 64k`, join(target.podDir, 'disks', 'scratch.qcow2')]); return true; } catch { return false; }
    };
    expect(holds('0x5a')).toBe(true);
    expect(holds('0x00')).toBe(false);
    const done = infos.find((i) => i.status === 'completed');
    process.stderr.write(`disk migration: total ${done?.totalTimeMs} ms, downtime ${done?.downtimeMs} ms\n`);
  });
});
