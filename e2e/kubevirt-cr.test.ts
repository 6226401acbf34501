/**
 * The KubeVirt CR as a KubeVirt admin uses it, with the real kubectl on a 2-node `kv up` cluster:
 * `kubectl get kubevirt -A` finds kubevirt/kubevirt Deployed; a HostDisk VMI is refused until a
 * `kubectl patch` enables the gate, then runs with its sparse disk on the node; a bad configuration
 * is refused with a message; parallelMigrationsPerCluster holds a second migration back and a patch
 * raising it lets that migration go at once (no restart).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubectl, type Kubectl } from './support/kubectl';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { isRunning } from './support/lifecycle-table';
import { callRest, until, VMIS } from './support/rest';
import { parseQuantity } from '../lib/kubevirt/quantity';
import { createVM, demoVM, NS, readState } from './support/vm-fixtures';

const BOOT_MS = 120_000;
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

const patchConfig = (configuration: object) => kubectl.run('patch', 'kubevirt', 'kubevirt', '-n', 'kubevirt', '--type', 'merge', '-p', JSON.stringify({ spec: { configuration } }));
const MIGRATIONS = `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstancemigrations`;
const phaseOf = async (name: string): Promise<string | undefined> => (await callRest(c.admin, 'GET', `${MIGRATIONS}/${name}`)).body?.status?.phase;

function hostDiskVMI(path: string): string {
  return `apiVersion: kubevirt.io/v1
kind: VirtualMachineInstance
metadata:
  name: vmi-host-disk
spec:
  terminationGracePeriodSeconds: 0
  domain:
    memory: {guest: 128Mi}
    devices:
      disks:
        - {name: root, disk: {bus: virtio}}
        - {name: host-disk, disk: {bus: virtio}}
  volumes:
    - {name: root, containerDisk: {image: demo}}
    - name: host-disk
      hostDisk: {path: ${path}, type: DiskOrCreate, capacity: 1Gi}
`;
}

describe('the KubeVirt CR', () => {
  it('kubectl get kubevirt -A lists kubevirt/kubevirt Deployed, with the operator\'s conditions', async () => {
    await until('KubeVirt Deployed', async () => (await kubectl.run('get', 'kubevirt', '-n', 'kubevirt', 'kubevirt', '-o', 'jsonpath={.status.phase}')).out === 'Deployed', 30_000);
    const listed = await kubectl.run('get', 'kubevirt', '-A');
    expect(listed.out).toMatch(/^NAMESPACE\s+NAME\s+AGE\s+PHASE\nkubevirt\s+kubevirt\s+\S+\s+Deployed\n$/);
    const conditions = (await kubectl.run('get', 'kv', '-n', 'kubevirt', 'kubevirt', '-o', 'jsonpath={range .status.conditions[*]}{.type}={.status} {end}')).out;
    expect(conditions.trim()).toBe('Available=True Progressing=False Degraded=False');
  });

  it('a HostDisk VMI is refused until kubectl patch enables the gate, then runs with its disk on the node', async () => {
    const path = join(c.cluster.dataDir, 'hostdisks', 'disk.img');
    const file = kubectl.file('vmi-host-disk.yaml', hostDiskVMI(path));
    const refused = await kubectl.run('apply', '-f', file);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('HostDisk feature gate is not enabled');

    expect((await patchConfig({ developerConfiguration: { featureGates: ['HostDisk'] } })).out).toBe('kubevirt.kubevirt.io/kubevirt patched\n');
    const applied = await until('the VMI accepted', async () => { const r = await kubectl.run('apply', '-f', file); return r.code === 0 && r; }, 10_000);
    expect(applied.out).toBe('virtualmachineinstance.kubevirt.io/vmi-host-disk created\n');
    await until('vmi-host-disk Running', async () => (await kubectl.run('get', 'vmi', 'vmi-host-disk', '-o', 'jsonpath={.status.phase}')).out === 'Running', BOOT_MS);
    const st = statSync(path);
    expect(st.size).toBe(1024 ** 3);
    expect(st.blocks * 512).toBeLessThan(64 * 1024 * 1024); // sparse
    await kubectl.run('delete', 'vmi', 'vmi-host-disk', '--wait=false');
  });

  it('a bad configuration is refused with a message, and the CR keeps its last good one', async () => {
    const zero = await patchConfig({ migrations: { parallelMigrationsPerCluster: 0 } });
    expect(zero.code).toBe(1);
    expect(zero.err).toContain('parallelMigrationsPerCluster must be a positive integer');
    const both = await patchConfig({ developerConfiguration: { featureGates: ['HostDisk'], disabledFeatureGates: ['HostDisk'] } });
    expect(both.code).toBe(1);
    expect(both.err).toContain('feature gate "HostDisk" exists on both "FeatureGates" and "DisabledFeatureGates"');
    const wrongType = await patchConfig({ migrations: { parallelMigrationsPerCluster: 'many' } });
    expect(wrongType.code).toBe(1);
    expect(wrongType.err).toContain('spec.configuration.migrations.parallelMigrationsPerCluster');
    expect((await kubectl.run('get', 'kv', '-n', 'kubevirt', 'kubevirt', '-o', 'jsonpath={.spec.configuration.developerConfiguration.featureGates}')).out).toBe('["HostDisk"]');
  });

  it('additionalGuestMemoryOverheadRatio: below 1 is refused with KubeVirt\'s message; 2 doubles the next launcher Pod\'s overhead, not its guest', async () => {
    const low = await patchConfig({ additionalGuestMemoryOverheadRatio: '0.5' });
    expect(low.code).toBe(1);
    expect(low.err).toContain('ratio provided, 0.5, cannot be smaller than 1.0');
    expect((await patchConfig({ additionalGuestMemoryOverheadRatio: '2' })).code).toBe(0);
    try {
      const created = await callRest(c.admin, 'POST', VMIS(NS), { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'vmi-ratio' }, spec: { terminationGracePeriodSeconds: 0, domain: { memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] } });
      expect(created.status).toBe(201);
      const pod = await until('vmi-ratio launcher Pod', async () => (await callRest(c.admin, 'GET', `/api/v1/namespaces/${NS}/pods?labelSelector=kubevirt.io/created-by=${created.body.metadata.uid}`)).body.items[0]);
      // 128Mi guest, 1 vCPU, VGA: 150 MiB + 256 KiB of overhead (launcher-pod-resources.ts), doubled in whole kB as KubeVirt does
      const base = 150 * 2 ** 20 + 256 * 1024;
      const doubled = base + Math.ceil(base / 1000) * 1000;
      expect(pod.metadata.annotations['kubevirt.io/memory-overhead-bytes']).toBe(String(doubled));
      expect(parseQuantity(pod.spec.containers[0].resources.requests.memory)).toBe(128 * 2 ** 20 + doubled);
    } finally {
      await callRest(c.admin, 'DELETE', `${VMIS(NS)}/vmi-ratio`);
      expect((await patchConfig({ additionalGuestMemoryOverheadRatio: null })).code).toBe(0);
    }
  });

  it('parallelMigrationsPerCluster holds a second migration back; raising it lets it go without a restart', async () => {
    expect((await patchConfig({ migrations: { parallelMigrationsPerCluster: 1, bandwidthPerMigration: '1Mi' } })).code).toBe(0);
    for (const name of ['mig-a', 'mig-b']) await createVM(c.admin, demoVM(name, { runStrategy: 'Always' }));
    for (const name of ['mig-a', 'mig-b']) await until(`${name} Running`, async () => isRunning(await readState(c.admin, name)), BOOT_MS);
    const create = async (vmi: string) => (await callRest(c.admin, 'POST', MIGRATIONS, { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceMigration', metadata: { name: `m-${vmi}` }, spec: { vmiName: vmi } })).status;
    expect(await create('mig-a')).toBe(201);
    await until('m-mig-a past Pending', async () => { const p = await phaseOf('m-mig-a'); return !!p && p !== 'Pending'; }, 60_000);
    expect(await create('mig-b')).toBe(201);
    // held back while m-mig-a runs (1 MiB/s keeps it running for minutes)
    await new Promise((r) => setTimeout(r, 4000));
    expect(await phaseOf('m-mig-b')).toBe('Pending');
    expect(['Succeeded', 'Failed']).not.toContain(await phaseOf('m-mig-a'));

    expect((await patchConfig({ migrations: { parallelMigrationsPerCluster: 2 } })).code).toBe(0);
    await until('m-mig-b past Pending', async () => { const p = await phaseOf('m-mig-b'); return !!p && p !== 'Pending'; }, 15_000);
    for (const vmi of ['mig-a', 'mig-b']) await callRest(c.admin, 'DELETE', `${MIGRATIONS}/m-${vmi}`);
  });
});
