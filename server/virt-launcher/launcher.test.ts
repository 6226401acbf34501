import { existsSync, readFileSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { DomainStatus } from './protocol';
import { isAlive, startTestLauncher, tinyVMI, waitFor, type TestLauncher } from './test-launcher';

describe('kv launcher (real process, real QEMU)', () => {
  let l: TestLauncher | undefined;
  afterEach(async () => { await l?.stop(); l = undefined; });

  it('starts the domain once, pauses/unpauses, dumps the screen, reports stats; shutdown kills at the grace period', async () => {
    l = await startTestLauncher();
    const events: DomainStatus[] = [];
    l.client.on('domain', (s) => events.push(s));
    const first = await l.client.request('sync', { vmi: tinyVMI() }, { timeoutMs: 20_000 });
    expect(first).toMatchObject({ state: 'running', accel: 'tcg', machine: 'q35', qemuUser: { uid: 107 } });
    expect(isAlive(first.qemuPid)).toBe(true);
    // QEMU dropped root (qemu-user.ts): uid/gid 107, no supplementary groups
    const status = readFileSync(`/proc/${first.qemuPid}/status`, 'utf8');
    expect(status).toMatch(/^Uid:\t107\t107\t107\t107$/m);
    expect(status).toMatch(/^Gid:\t107\t107\t107\t107$/m);
    expect(status).toMatch(/^Groups:\s*$/m);
    const again = await l.client.request('sync', { vmi: tinyVMI() });
    expect(again.qemuPid).toBe(first.qemuPid);

    await expect(l.client.request('pause')).resolves.toMatchObject({ state: 'paused', reason: 'PausedByUser' });
    await expect(l.client.request('unpause')).resolves.toMatchObject({ state: 'running' });
    await waitFor(() => events.some((e) => e.state === 'paused') && events.at(-1)?.state === 'running', 5000, 'paused+running events');

    const dump = await l.client.request('screendump', { format: 'ppm' });
    expect(readFileSync(dump.path).subarray(0, 2).toString()).toBe('P6');
    const stats = await l.client.request('stats');
    expect(stats.memory.domainBytes).toBe(64 * 2 ** 20);
    expect(stats.cpuSeconds.total).toBeGreaterThan(0);
    await expect(l.client.request('guestInfo')).resolves.toEqual({ connected: false });

    // SeaBIOS without an OS ignores the ACPI button: killed after 1 s, after an ACPI attempt → Failed semantics
    await l.client.request('shutdown', { graceSeconds: 1 });
    expect(await l.exited).toBe(1);
    expect(l.termination()).toMatchObject({ reason: 'Destroyed', exitCode: 1 });
    expect(isAlive(first.qemuPid)).toBe(false);
  });

  it.each([
    ['kill → Destroyed, exit 0', 'kill', 0, 'Destroyed'],
    ['kill -9 of QEMU → Crashed, exit 1', 'qemu-sigkill', 1, 'Crashed'],
    ['SIGTERM → ACPI shutdown with the VMI grace, then exit 0', 'sigterm', 0, 'Destroyed'],
  ])('%s', async (_label, how, code, reason) => {
    l = await startTestLauncher();
    const st = await l.client.request('sync', { vmi: tinyVMI() }, { timeoutMs: 20_000 });
    if (how === 'kill') await l.client.request('kill');
    if (how === 'qemu-sigkill') process.kill(st.qemuPid!, 'SIGKILL');
    if (how === 'sigterm') l.proc.kill('SIGTERM');
    expect(await l.exited).toBe(code);
    expect(l.termination()).toMatchObject({ reason, exitCode: code });
    expect(isAlive(st.qemuPid)).toBe(false);
  });

  it('killing the launcher kills QEMU (no orphan)', async () => {
    l = await startTestLauncher();
    const st = await l.client.request('sync', { vmi: tinyVMI() }, { timeoutMs: 20_000 });
    l.proc.kill('SIGKILL');
    await l.exited;
    await waitFor(() => !isAlive(st.qemuPid), 5000, 'QEMU to die with its launcher');
  });

  it('a launcher whose pod dir is removed (its Pod cleaned up by a kubelet that did not know it) stops QEMU and exits', async () => {
    l = await startTestLauncher();
    const st = await l.client.request('sync', { vmi: tinyVMI() }, { timeoutMs: 20_000 });
    rmSync(l.podDir, { recursive: true, force: true });
    expect(await Promise.race([l.exited, new Promise((r) => setTimeout(() => r('still running'), 10_000))])).toBe(0);
    await waitFor(() => !isAlive(st.qemuPid), 5000, 'QEMU to die with its launcher');
  });

  it('an unknown image fails the sync with ErrImagePull and ends the launcher with that reason', async () => {
    l = await startTestLauncher();
    const vmi = tinyVMI({ volumes: [{ name: 'root', containerDisk: { image: 'quay.io/nope/missing:latest' } }] });
    vmi.spec.domain.devices = { disks: [{ name: 'root' }], autoattachPodInterface: false };
    await expect(l.client.request('sync', { vmi })).rejects.toMatchObject({ reason: 'ErrImagePull' });
    expect(await l.exited).toBe(1);
    expect(l.termination()?.reason).toBe('ErrImagePull');
    expect(existsSync(`${l.podDir}/qmp.sock`)).toBe(false);
  });
});
