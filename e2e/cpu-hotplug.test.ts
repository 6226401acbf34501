/**
 * Live CPU changes as a KubeVirt user makes them, with the real kubectl on a 1-node `kv up`
 * cluster: with `vmRolloutStrategy: LiveUpdate`, `kubectl patch vm` of cpu.sockets 1→2 hot-adds a
 * vCPU to the running demo guest (its serial console prints `nproc` going 1 → 2, same VMI, no
 * reboot) and the VMI's status.currentCPUTopology follows; a socket count past maxSockets sets
 * RestartRequired instead, and the restart boots the guest with all of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestConsoleLog } from './support/guest-console-log';
import { makeKubectl, type Kubectl } from './support/kubectl';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callRest, until } from './support/rest';
import { createVM, demoVM, NS, readVM, readVMI } from './support/vm-fixtures';

const BOOT_MS = 120_000;
const VM = 'hotcpu';
/** the guest onlines every CPU that appears (no udev in the demo guest) and prints nproc when it changes */
const NPROC_PRINTER = `#!/bin/sh
(last=; while true; do
  for f in /sys/devices/system/cpu/cpu*/online; do [ "$(cat $f)" = 1 ] || echo 1 > $f; done
  n=$(nproc); [ "$n" = "$last" ] || echo "kv-nproc=$n" > /dev/ttyS0; last=$n; sleep 1
done) &
`;
let c: LifecycleCluster;
let kubectl: Kubectl;

beforeAll(async () => {
  c = await startLifecycleCluster({ nodes: 1 });
  kubectl = makeKubectl(c.cluster.kubeconfig);
});
afterAll(async () => {
  kubectl?.dispose();
  await c?.stop();
});

const consoleLog = () => guestConsoleLog(c.admin, c.cluster.dataDir, NS, VM);
const lastNproc = async () => [...(await consoleLog()).matchAll(/kv-nproc=(\d+)/g)].at(-1)?.[1];
const patchSockets = (sockets: number) => kubectl.run('patch', 'vm', VM, '--type', 'merge', '-p', JSON.stringify({ spec: { template: { spec: { domain: { cpu: { sockets } } } } } }));
const restartRequired = async () => (await readVM(c.admin, VM))?.status?.conditions?.some((x: { type: string; status: string }) => x.type === 'RestartRequired' && x.status === 'True');

describe('CPU hotplug with vmRolloutStrategy LiveUpdate', () => {
  it('kubectl patch vm sockets 1→2: the running guest gets a second vCPU without a restart', async () => {
    const patched = await kubectl.run('patch', 'kubevirt', 'kubevirt', '-n', 'kubevirt', '--type', 'merge', '-p', JSON.stringify({ spec: { configuration: { vmRolloutStrategy: 'LiveUpdate' } } }));
    expect(patched.code).toBe(0);
    const vm = demoVM(VM, { runStrategy: 'Always', userScript: NPROC_PRINTER });
    (vm.spec.template.spec.domain as Record<string, unknown>).cpu = { sockets: 1 };
    await createVM(c.admin, vm);
    const running = await until('VMI Running', async () => { const v = await readVMI(c.admin, VM); return v?.status?.phase === 'Running' && v; }, BOOT_MS);
    expect(running.spec.domain.cpu).toMatchObject({ sockets: 1, maxSockets: 4 });
    expect(running.status.currentCPUTopology).toMatchObject({ sockets: 1 });
    await until('the guest prints nproc=1', async () => (await lastNproc()) === '1', BOOT_MS);

    expect((await patchSockets(2)).out).toBe(`virtualmachine.kubevirt.io/${VM} patched\n`);
    const after = await until('currentCPUTopology.sockets 2', async () => { const v = await readVMI(c.admin, VM); return v?.status?.currentCPUTopology?.sockets === 2 && v; }, 30_000);
    expect(after.metadata.uid).toBe(running.metadata.uid);
    expect(after.status.phase).toBe('Running');
    await until('the guest prints nproc=2', async () => (await lastNproc()) === '2', 60_000);
    expect(await restartRequired()).toBeFalsy();
  });

  it('sockets past maxSockets set RestartRequired and leave the guest as it is; a restart boots them all', async () => {
    expect((await patchSockets(5)).code).toBe(0);
    await until('RestartRequired', restartRequired, 30_000);
    const vmi = await readVMI(c.admin, VM);
    expect(vmi.spec.domain.cpu.sockets).toBe(2);
    expect(vmi.status.currentCPUTopology.sockets).toBe(2);

    const restart = await callRest(c.admin, 'PUT', `/apis/subresources.kubevirt.io/v1/namespaces/${NS}/virtualmachines/${VM}/restart`, {});
    expect(restart.status).toBe(202);
    const again = await until('a new VMI Running', async () => { const v = await readVMI(c.admin, VM); return v?.metadata.uid !== vmi.metadata.uid && v?.status?.phase === 'Running' && v; }, BOOT_MS);
    expect(again.spec.domain.cpu).toMatchObject({ sockets: 5, maxSockets: 20 });
    expect(again.status.currentCPUTopology).toMatchObject({ sockets: 5 });
    await until('the restarted guest prints nproc=5', async () => (await lastNproc()) === '5', BOOT_MS);
    await until('RestartRequired gone', async () => !(await restartRequired()), 30_000);
  });
});
