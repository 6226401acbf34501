/**
 * Live memory changes as a KubeVirt user makes them, with the real kubectl on a 2-node `kv up`
 * cluster: with `vmRolloutStrategy: LiveUpdate`, `kubectl patch vm` of memory.guest 1Gi→2Gi moves
 * the running demo guest by live migration into a launcher Pod sized for 2Gi, where its virtio-mem
 * device is asked for the difference; the guest's /proc/meminfo MemTotal grows (it prints it on
 * its serial console), same VMI, no reboot, and status.memory shows it. Past maxGuest →
 * RestartRequired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestConsoleLog } from './support/guest-console-log';
import { makeKubectl, type Kubectl } from './support/kubectl';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callRest, until } from './support/rest';
import { createVM, demoVM, NS, readVM, readVMI } from './support/vm-fixtures';

const BOOT_MS = 180_000;
const HOTPLUGGED_KIB = 1024 * 1024;
const VM = 'hotmem';
/** the guest onlines every memory block that appears (no udev in the demo guest) and prints MemTotal (KiB) when it changes */
const MEMTOTAL_PRINTER = `#!/bin/sh
(last=; while true; do
  for f in /sys/devices/system/memory/memory*/state; do [ "$(cat $f)" = online ] || echo online > $f 2>/dev/null; done
  set -- $(grep MemTotal /proc/meminfo); n=$2
  [ "$n" = "$last" ] || echo "kv-memtotal=$n" > /dev/ttyS0; last=$n; sleep 1
done) &
`;
let c: LifecycleCluster;
let kubectl: Kubectl;

beforeAll(async () => {
  c = await startLifecycleCluster({ nodes: 2 });
  kubectl = makeKubectl(c.cluster.kubeconfig);
});
afterAll(async () => {
  kubectl?.dispose();
  await c?.stop();
});

const consoleLog = () => guestConsoleLog(c.admin, c.cluster.dataDir, NS, VM);
/** until(), with the guest's console tail in the error (what the guest did instead) */
async function untilGuest<T>(what: string, fn: () => Promise<T>, ms: number): Promise<T> {
  try {
    return await until(what, fn, ms);
  } catch (err) {
    throw new Error(`${(err as Error).message}; console: ${(await consoleLog()).slice(-1500)}`, { cause: err });
  }
}
/** What the VMI, its migrations and the warnings say (for a failed wait). */
async function memoryState(): Promise<string> {
  const v = await readVMI(c.admin, VM);
  const migrations = (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstancemigrations`)).body?.items ?? [];
  const events = (await callRest(c.admin, 'GET', `/api/v1/namespaces/${NS}/events`)).body?.items ?? [];
  return JSON.stringify({
    memory: v?.spec?.domain?.memory, resources: v?.spec?.domain?.resources, status: v?.status?.memory, node: v?.status?.nodeName,
    conditions: v?.status?.conditions, migrationState: v?.status?.migrationState,
    migrations: migrations.map((m: { metadata: { name: string }; status?: { phase?: string } }) => [m.metadata.name, m.status?.phase]),
    warnings: events.filter((e: { type: string }) => e.type === 'Warning').map((e: { reason: string; message: string }) => `${e.reason}: ${e.message}`).slice(-10),
  });
}
async function untilMemory<T>(what: string, fn: () => Promise<T>, ms: number): Promise<T> {
  try {
    return await until(what, fn, ms);
  } catch (err) {
    throw new Error(`${(err as Error).message}; ${await memoryState()}`, { cause: err });
  }
}
const lastMemTotalKiB = async () => Number([...(await consoleLog()).matchAll(/kv-memtotal=(\d+)/g)].at(-1)?.[1] ?? 0);
const patchGuest = (guest: string) => kubectl.run('patch', 'vm', VM, '--type', 'merge', '-p', JSON.stringify({ spec: { template: { spec: { domain: { memory: { guest } } } } } }));
const restartRequired = async () => (await readVM(c.admin, VM))?.status?.conditions?.some((x: { type: string; status: string }) => x.type === 'RestartRequired' && x.status === 'True');

describe('memory hotplug with vmRolloutStrategy LiveUpdate', () => {
  it('kubectl patch vm memory.guest 1Gi→2Gi: the running guest\'s MemTotal grows by 1Gi without a restart', async () => {
    const patched = await kubectl.run('patch', 'kubevirt', 'kubevirt', '-n', 'kubevirt', '--type', 'merge', '-p', JSON.stringify({ spec: { configuration: { vmRolloutStrategy: 'LiveUpdate' } } }));
    expect(patched.code).toBe(0);
    const vm = demoVM(VM, { runStrategy: 'Always', userScript: MEMTOTAL_PRINTER });
    (vm.spec.template.spec.domain as Record<string, unknown>).memory = { guest: '1Gi' };
    await createVM(c.admin, vm);
    const running = await until('VMI Running', async () => { const v = await readVMI(c.admin, VM); return v?.status?.phase === 'Running' && v; }, BOOT_MS);
    expect(running.spec.domain.memory).toMatchObject({ guest: '1Gi', maxGuest: '4Gi' });
    expect(running.status.memory).toMatchObject({ guestAtBoot: '1Gi', guestRequested: '1Gi' });
    await untilGuest('the guest prints its MemTotal', async () => (await lastMemTotalKiB()) > 0, BOOT_MS);
    const before = await lastMemTotalKiB();
    expect(before).toBeLessThanOrEqual(1024 * 1024);

    expect((await patchGuest('2Gi')).out).toBe(`virtualmachine.kubevirt.io/${VM} patched\n`);
    const after = await untilMemory('status.memory.guestRequested 2Gi', async () => { const v = await readVMI(c.admin, VM); return v?.status?.memory?.guestRequested === '2Gi' && v; }, BOOT_MS);
    expect(after.metadata.uid).toBe(running.metadata.uid);
    expect(after.status.phase).toBe('Running');
    expect(after.status.nodeName).not.toBe(running.status.nodeName); // moved into a Pod sized for 2Gi
    expect(after.status.conditions.some((x: { type: string }) => x.type === 'HotMemoryChange')).toBe(false);
    await untilGuest('the guest\'s MemTotal grew by 1Gi', async () => (await lastMemTotalKiB()) - before >= HOTPLUGGED_KIB, 120_000);
    process.stderr.write(`memory hotplug: guest MemTotal ${before} → ${await lastMemTotalKiB()} KiB\n`);
    await until('status.memory.guestCurrent 2Gi', async () => (await readVMI(c.admin, VM))?.status?.memory?.guestCurrent === '2Gi', 60_000);
    expect(await restartRequired()).toBeFalsy();
  });

  it('memory.guest past maxGuest sets RestartRequired and leaves the guest as it is', async () => {
    expect((await patchGuest('8Gi')).code).toBe(0);
    await until('RestartRequired', restartRequired, 30_000);
    const vmi = await readVMI(c.admin, VM);
    expect(vmi.spec.domain.memory.guest).toBe('2Gi');
    expect(vmi.status.memory.guestRequested).toBe('2Gi');
  });
});
