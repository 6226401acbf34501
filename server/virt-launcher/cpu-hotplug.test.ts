/** CPU hotplug against the real launcher and QEMU: vCPUs appear (query-cpus-fast, as stats report them) without a restart. */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestLauncher, tinyVMI, type TestLauncher } from './test-launcher';

describe('setCPUs (real launcher, real QEMU)', () => {
  let l: TestLauncher | undefined;
  afterEach(async () => { await l?.stop(); l = undefined; });

  it('hot-adds a socket of 2 cores the guest then has; refuses unplug and going past maxSockets', async () => {
    l = await startTestLauncher();
    const vmi = tinyVMI({ domain: { cpu: { sockets: 1, cores: 2, maxSockets: 3 }, memory: { guest: '64Mi' }, devices: { autoattachPodInterface: false } } });
    const first = await l.client.request('sync', { vmi }, { timeoutMs: 20_000 });
    const pid = first.qemuPid;
    const count = async () => (await l!.client.request('stats')).vcpus;
    expect(await count()).toBe(2);

    await expect(l.client.request('setCPUs', { sockets: 2 })).resolves.toEqual({ sockets: 2, vcpus: 4 });
    expect(await count()).toBe(4);
    await expect(l.client.request('setCPUs', { sockets: 2 })).resolves.toEqual({ sockets: 2, vcpus: 4 });

    await expect(l.client.request('setCPUs', { sockets: 1 })).rejects.toThrow('CPU hot-unplug is not supported: the domain has 2 sockets, 1 requested');
    await expect(l.client.request('setCPUs', { sockets: 4 })).rejects.toThrow('the domain was started with room for 3 sockets, 4 requested');
    await expect(l.client.request('setCPUs', { sockets: 3 })).resolves.toEqual({ sockets: 3, vcpus: 6 });
    expect(await count()).toBe(6);
    await expect(l.client.request('status')).resolves.toMatchObject({ state: 'running', qemuPid: pid });
  });
});
