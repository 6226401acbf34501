/**
 * A migration that goes wrong leaves the guest where it was: cancelled by deleting its VMIM while
 * it runs (made slow on purpose by a MigrationPolicy bandwidth limit), or failed because the target
 * QEMU was killed mid-way. MIGRATION_STRESS_REPEAT (default 1; 10 for the stress run) repeats each.
 * After the switch to post-copy the guest cannot stay anywhere: the target's death fails the VMI,
 * and its VM starts a fresh one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VirtualMachineInstance, VirtualMachineInstanceMigration } from '../lib/kubevirt';
import type { KubeClients } from '../server/kube/clients';
import { startCluster, type TestCluster } from './harness';
import {
  clientsOf, CounterReader, createSlowPolicy, finalMigration, getVMI, getVMIM, isAlive, migrate, NS, qemuPidOn, startGuest, until,
} from './migration-helpers';
import { demoVM } from './support/vm-fixtures';

const REPEAT = Number(process.env.MIGRATION_STRESS_REPEAT ?? 1);
const SLOW = { migration: 'slow' };
let cluster: TestCluster;
let k: KubeClients;
let reader: CounterReader;

beforeAll(async () => {
  cluster = await startCluster({ nodes: 2, console: false });
  k = clientsOf(cluster);
  await createSlowPolicy(k, 'slow', SLOW, '512Ki');
  await startGuest(k, 'slowpoke', SLOW);
  reader = await CounterReader.open(cluster, k, 'slowpoke');
  await reader.past(2);
});
afterAll(async () => { reader?.close(); await cluster?.stop(); });

/** Starts a migration of the slow guest and waits until QEMU is copying memory. */
async function runningMigration(): Promise<{ name: string; source: string; sourcePid: number; target: string }> {
  const vmi = await getVMI(k, 'slowpoke');
  const source = vmi.status.nodeName as string;
  const sourcePid = qemuPidOn(cluster, vmi, source)!;
  const name = await migrate(k, 'slowpoke');
  const vmim = await until(`${name} Running`, async () => { const m = await getVMIM(k, name); return m?.status?.phase === 'Running' && m; }, 120_000);
  return { name, source, sourcePid, target: vmim.status.migrationState.targetNode };
}

/** The guest is still on `source`, its QEMU alive, and its counter moves on. */
async function expectStillOnSource(source: string, sourcePid: number): Promise<void> {
  const vmi = await getVMI(k, 'slowpoke');
  expect(vmi.status.nodeName).toBe(source);
  expect(vmi.status.phase).toBe('Running');
  expect(isAlive(sourcePid)).toBe(true);
  await reader.past(reader.last ?? 0, 30_000);
  // the next migration may start only once the failed target Pod left activePods
  await until('one active pod', async () => Object.keys((await getVMI(k, 'slowpoke')).status.activePods ?? {}).length === 1, 60_000);
}

describe('a migration that does not finish', () => {
  it(`is cancelled by deleting its VMIM; the guest stays on the source (×${REPEAT})`, async () => {
    for (let i = 0; i < REPEAT; i++) {
      const { name, source, sourcePid } = await runningMigration();
      await k.migrations.delete(NS, name);
      await until(`${name} gone`, async () => !(await getVMIM(k, name)), 60_000);
      const state = (await getVMI(k, 'slowpoke')).status.migrationState;
      expect(state).toMatchObject({ abortRequested: true, abortStatus: 'Succeeded', failed: true, completed: true });
      await expectStillOnSource(source, sourcePid);
    }
  });

  it(`fails when the target QEMU is killed mid-way; the guest stays on the source (×${REPEAT})`, async () => {
    for (let i = 0; i < REPEAT; i++) {
      const { name, source, sourcePid, target } = await runningMigration();
      const targetPid = qemuPidOn(cluster, await getVMI(k, 'slowpoke'), target)!;
      expect(targetPid).toBeGreaterThan(0);
      process.kill(targetPid, 'SIGKILL');
      const vmim = await finalMigration(k, name, 60_000);
      expect(vmim.status.phase).toBe('Failed');
      expect(vmim.status.migrationState.failureReason).toBeTruthy();
      await expectStillOnSource(source, sourcePid);
    }
  });
});

describe('a post-copy migration that loses a side', () => {
  const POSTCOPY = { migration: 'postcopy' };
  beforeAll(async () => {
    // slow, and past its completion timeout (1 s for 128Mi) at once: the source handler switches it to post-copy
    await k.custom.createClusterCustomObject({
      group: 'migrations.kubevirt.io', version: 'v1alpha1', plural: 'migrationpolicies',
      body: {
        apiVersion: 'migrations.kubevirt.io/v1alpha1', kind: 'MigrationPolicy', metadata: { name: 'postcopy' },
        spec: { selectors: { virtualMachineInstanceSelector: POSTCOPY }, bandwidthPerMigration: '512Ki', completionTimeoutPerGiB: 1, allowPostCopy: true },
      },
    });
  });

  /** A runStrategy Always VM whose migration has switched to post-copy. */
  async function inPostcopy(vmName: string) {
    const vm = demoVM(vmName, { runStrategy: 'Always' });
    Object.assign(vm.spec.template.metadata.labels, POSTCOPY);
    await k.vms.create(NS, vm as never);
    const first = await until(`${vmName} Running`, async () => { const v = await getVMI(k, vmName); return v?.status?.phase === 'Running' && v; }, 120_000);
    const source = first.status.nodeName as string;
    const name = await migrate(k, vmName);
    const switched = await until('post-copy mode', async () => { const v = await getVMI(k, vmName); return v?.status?.migrationState?.mode === 'PostCopy' && v; }, 120_000);
    const target = switched.status.migrationState.targetNode as string;
    const pids = { source: qemuPidOn(cluster, switched, source)!, target: qemuPidOn(cluster, switched, target)! };
    expect(pids.source).toBeGreaterThan(0);
    expect(pids.target).toBeGreaterThan(0);
    return { first, name, pids };
  }

  /** Waits for the VMIM and the old VMI to end (the VM controller replaces a Failed VMI at once: keeps the last look at it). */
  async function ended(vmName: string, firstUID: string, vmim: string): Promise<{ vmim: VirtualMachineInstanceMigration; old: VirtualMachineInstance }> {
    const m = await finalMigration(k, vmim, 60_000);
    let old: VirtualMachineInstance | undefined;
    await until('VMI Failed with its migration state', async () => {
      const v = await getVMI(k, vmName);
      if (v?.metadata.uid !== firstUID) return true;
      old = v;
      return v.status?.phase === 'Failed' && v.status.migrationState?.failed;
    }, 30_000);
    if (!old) throw new Error(`VMI ${vmName} was replaced before it was seen`);
    return { vmim: m, old };
  }

  async function restarted(vmName: string, firstUID: string): Promise<void> {
    const next = await until('a new VMI Running', async () => { const v = await getVMI(k, vmName); return v?.metadata.uid !== firstUID && v?.status?.phase === 'Running' && v; }, 120_000);
    expect(next.metadata.uid).not.toBe(firstUID);
  }

  it('target dies: VMIM Failed, VMI Failed (PostcopyFailed), no QEMU left on the source, the VM starts a new VMI', async () => {
    const { first, name, pids } = await inPostcopy('postcopy-target-dies');
    const killedAt = Date.now();
    process.kill(pids.target, 'SIGKILL');
    const { vmim, old } = await ended('postcopy-target-dies', first.metadata.uid, name);
    process.stderr.write(`post-copy target killed: VMIM ${vmim.status?.phase}, VMI ${old?.status?.phase} within ${Date.now() - killedAt} ms\n`);
    expect(vmim.status?.phase).toBe('Failed');
    expect(isAlive(pids.source)).toBe(false);
    expect(old.status).toMatchObject({ phase: 'Failed', reason: 'PostcopyFailed' });
    expect(old.status?.migrationState).toMatchObject({ failed: true, completed: true, mode: 'PostCopy' });
    expect(old.status?.migrationState?.endTimestamp).toBeTruthy();
    expect(old.status?.migrationState?.failureReason).toMatch(/irrecoverable due to failed post-copy migration/);
    await restarted('postcopy-target-dies', first.metadata.uid);
    process.stderr.write(`post-copy target killed: new VMI Running ${Date.now() - killedAt} ms after the kill\n`);
  });

  it('source dies: the target never runs the incomplete guest — VMIM Failed, VMI Failed, no QEMU left on the target, a new VMI', async () => {
    const { first, name, pids } = await inPostcopy('postcopy-source-dies');
    const killedAt = Date.now();
    process.kill(pids.source, 'SIGKILL');
    const { vmim, old } = await ended('postcopy-source-dies', first.metadata.uid, name);
    process.stderr.write(`post-copy source killed: VMIM ${vmim.status?.phase}, VMI ${old?.status?.phase} within ${Date.now() - killedAt} ms\n`);
    expect(vmim.status?.phase).toBe('Failed');
    expect(isAlive(pids.target)).toBe(false);
    expect(old.status?.phase).toBe('Failed');
    expect(old.status?.nodeName).toBe(first.status.nodeName); // never taken over by the target
    expect(old.status?.migrationState).toMatchObject({ failed: true, completed: true, mode: 'PostCopy' });
    expect(old.status?.migrationState?.failureReason).toMatch(/irrecoverable due to failed post-copy migration/);
    await restarted('postcopy-source-dies', first.metadata.uid);
  });
});
