/** Memory hotplug against the real launcher and QEMU: the virtio-mem device's requested size moves without a restart, and survives a migration. */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestLauncher, tinyVMI, waitFor, type TestLauncher } from './test-launcher';

const Gi = 2 ** 30;
const hotplugVMI = (guest: string, uid?: string) => ({
  ...tinyVMI({ domain: { memory: { guest, maxGuest: '4Gi' }, devices: { autoattachPodInterface: false } } }, uid),
  status: { memory: { guestAtBoot: '1Gi', guestCurrent: '1Gi', guestRequested: '1Gi' } },
});

describe('setMemory (real launcher, real QEMU)', () => {
  const launchers: TestLauncher[] = [];
  afterEach(async () => { await Promise.all(launchers.splice(0).map((x) => x.stop())); });

  it('asks the virtio-mem device for more and less memory, within boot memory and maxGuest, same QEMU', async () => {
    const l = await startTestLauncher();
    launchers.push(l);
    const first = await l.client.request('sync', { vmi: hotplugVMI('1Gi') }, { timeoutMs: 20_000 });
    // no guest driver here, so nothing gets plugged: current stays at boot memory
    await expect(l.client.request('memory')).resolves.toEqual({ currentBytes: Gi, requestedBytes: Gi, maxBytes: 4 * Gi });
    await expect(l.client.request('setMemory', { guestBytes: 3 * Gi })).resolves.toEqual({ currentBytes: Gi, requestedBytes: 3 * Gi, maxBytes: 4 * Gi });
    await expect(l.client.request('setMemory', { guestBytes: 2 * Gi })).resolves.toMatchObject({ requestedBytes: 2 * Gi });
    await expect(l.client.request('setMemory', { guestBytes: 5 * Gi })).rejects.toThrow(`the domain was started with room for ${4 * Gi} bytes, ${5 * Gi} requested`);
    await expect(l.client.request('setMemory', { guestBytes: Gi / 2 })).rejects.toThrow('less needs a restart');
    await expect(l.client.request('setMemory', { guestBytes: Gi + 4096 })).rejects.toThrow('not a multiple of the virtio-mem block size 2097152');
    await expect(l.client.request('status')).resolves.toMatchObject({ state: 'running', qemuPid: first.qemuPid });
  });

  it('refuses a domain started without maxGuest', async () => {
    const l = await startTestLauncher();
    launchers.push(l);
    await l.client.request('sync', { vmi: tinyVMI({ domain: { memory: { guest: '64Mi' }, devices: { autoattachPodInterface: false } } }) }, { timeoutMs: 20_000 });
    await expect(l.client.request('setMemory', { guestBytes: Gi })).rejects.toThrow('started without a virtio-mem device');
  });

  it('migrates to a target started from the VMI with more guest memory, which then requests it', async () => {
    const [source, target] = await Promise.all([startTestLauncher(), startTestLauncher()]);
    launchers.push(source, target);
    const uid = '99999999-2222-3333-4444-888888888888';
    await source.client.request('sync', { vmi: hotplugVMI('1Gi', uid) }, { timeoutMs: 20_000 });
    // what virt-controller wrote into the VMI: guest 2Gi; the target boots 1Gi with the same region
    const { host, port } = await target.client.request('prepareIncoming', { vmi: hotplugVMI('2Gi', uid) }, { timeoutMs: 20_000 });
    await source.client.request('migrate', { host, port, params: { downtimeMs: 300 } }, { timeoutMs: 60_000 });
    expect(await source.exited).toBe(0);
    expect(source.termination()?.reason).toBe('Migrated');
    await waitFor(async () => (await target.client.request('status')).state === 'running', 20_000, 'target running');
    await expect(target.client.request('setMemory', { guestBytes: 2 * Gi })).resolves.toEqual({ currentBytes: Gi, requestedBytes: 2 * Gi, maxBytes: 4 * Gi });
  });
});
