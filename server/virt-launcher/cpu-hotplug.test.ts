/** CPU hotplug against the real launcher and QEMU: vCPUs appear (query-cpus-fast, as stats report them) without a restart. */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestLauncher, tinyVMI, waitFor, type TestLauncher } from './test-launcher';

describe('setCPUs (real launcher, real QEMU)', () => {
  let l: TestLauncher | undefined;
  const more: TestLauncher[] = [];
  afterEach(async () => { await Promise.all([l?.stop(), ...more.splice(0).map((x) => x.stop())]); l = undefined; });

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

  it('a guest with a hot-added socket migrates to a target started with the new socket count', async () => {
    const [source, target] = await Promise.all([startTestLauncher(), startTestLauncher()]);
    more.push(source, target);
    const cpu = { sockets: 1, maxSockets: 4 };
    const vmi = tinyVMI({ domain: { cpu, memory: { guest: '64Mi' }, devices: { autoattachPodInterface: false } } }, '99999999-2222-3333-4444-777777777777');
    await source.client.request('sync', { vmi }, { timeoutMs: 20_000 });
    await expect(source.client.request('setCPUs', { sockets: 2 })).resolves.toEqual({ sockets: 2, vcpus: 2 });
    // what virt-controller wrote into the VMI: the target boots both sockets
    const moved = { ...vmi, spec: { ...vmi.spec, domain: { ...vmi.spec.domain, cpu: { ...cpu, sockets: 2 } } } };
    const { host, port } = await target.client.request('prepareIncoming', { vmi: moved }, { timeoutMs: 20_000 });
    await source.client.request('migrate', { host, port, params: { downtimeMs: 300 } }, { timeoutMs: 30_000 });
    expect(await source.exited).toBe(0);
    expect(source.termination()?.reason).toBe('Migrated');
    await waitFor(async () => (await target.client.request('status')).state === 'running', 10_000, 'target running');
    expect((await target.client.request('stats')).vcpus).toBe(2);
    await expect(target.client.request('setCPUs', { sockets: 3 })).resolves.toEqual({ sockets: 3, vcpus: 3 });
  });
});
