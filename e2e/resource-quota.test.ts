/**
 * ResourceQuota with real guests on 2 nodes, without the pod network.
 *
 * KubeVirt's conformance test "ResourceQuota rejection" (tests/migration/migration.go): a quota with
 * memory enough for the VMI's launcher Pod but not for a second one (the migration target). The
 * quota's status is filled, the migration's target Pod is refused, and the VMIM gets
 * migrationRejectedByResourceQuota=True within 60 s. Then (KubeVirt's behaviour after it: the
 * controller retries, and a changed quota requeues the migration at once) the quota is raised and
 * the migration completes, the condition gone.
 *
 * KubeVirt's test_id:11214 (tests/vmi_configuration_test.go, automatic resource limits): a quota on
 * limits.memory and limits.cpu makes the launcher Pod carry limits (memory = its request × 2, cpu =
 * the vCPUs), so the quota admits it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQuantity } from '../lib/kubevirt/quantity';
import { mergePatch, type KubeClients } from '../server/kube/clients';
import { startCluster, type TestCluster } from './harness';
import { renderLauncherResources } from '../server/virt-controller/vmi/launcher-pod-resources';
import { clientsOf, counterVMI, finalMigration, getVMIM, migrate, NS, startGuest, until } from './migration-helpers';

const MI = 2 ** 20;
const QUOTA = 'migration-quota';
let cluster: TestCluster;
let k: KubeClients;

beforeAll(async () => {
  process.env.KV_POD_NETWORK = '0';
  cluster = await startCluster({ nodes: 2, console: false });
  k = clientsOf(cluster);
});
afterAll(async () => {
  await k?.core.deleteNamespacedResourceQuota({ name: QUOTA, namespace: NS }).catch(() => undefined);
  await cluster?.stop();
});

/** the summed memory requests of the VMI's launcher Pod(s) that are not done */
async function launcherMemory(vmiName: string): Promise<number> {
  const pods = (await k.core.listNamespacedPod({ namespace: NS, labelSelector: `kubevirt.io/created-by` })).items
    .filter((p) => p.metadata?.ownerReferences?.some((o) => o.kind === 'VirtualMachineInstance' && o.name === vmiName) && !['Succeeded', 'Failed'].includes(p.status?.phase ?? ''));
  expect(pods).toHaveLength(1);
  return pods[0].spec!.containers.reduce((sum, c) => sum + (parseQuantity(c.resources?.requests?.memory) ?? 0), 0);
}

const hasCondition = (m: { status?: { conditions?: { type: string; status: string }[] } } | undefined) =>
  m?.status?.conditions?.some((c) => c.type === 'migrationRejectedByResourceQuota' && c.status === 'True') ?? false;

describe('ResourceQuota rejection', () => {
  it('a quota with room for the launcher Pod but not the target: the VMIM gets migrationRejectedByResourceQuota; raising the quota lets it finish', async () => {
    const vmi = await startGuest(k, 'quota-vm');
    const source = vmi.status.nodeName as string;
    const podMemory = await launcherMemory('quota-vm');
    expect(podMemory).toBeGreaterThan(128 * MI);
    const hard = `${Math.ceil(podMemory / MI) + 50}Mi`;
    await k.core.createNamespacedResourceQuota({ namespace: NS, body: { metadata: { name: QUOTA }, spec: { hard: { memory: hard } } } });
    const filled = await until('quota status filled', async () => {
      const q = await k.core.readNamespacedResourceQuota({ name: QUOTA, namespace: NS });
      return q.status?.hard?.memory === hard && q.status.used?.memory !== undefined && q;
    }, 60_000);
    expect(parseQuantity(filled.status!.used!.memory)).toBe(podMemory);

    const name = await migrate(k, 'quota-vm');
    const started = Date.now();
    const rejected = await until(`${name} rejected by quota`, async () => { const m = await getVMIM(k, name); return hasCondition(m) && m; }, 60_000);
    const rejectedAfterMs = Date.now() - started;
    expect(rejected.status.phase).toBe('Pending');
    const condition = rejected.status.conditions.find((c: { type: string }) => c.type === 'migrationRejectedByResourceQuota');
    expect(condition).toMatchObject({ status: 'True' });
    expect(condition.reason).toBeUndefined();
    const events = await k.core.listNamespacedEvent({ namespace: NS, fieldSelector: `involvedObject.name=${name}` });
    expect(events.items.some((e) => e.reason === 'FailedCreate' && e.message?.includes('exceeded quota: migration-quota'))).toBe(true);

    await k.core.patchNamespacedResourceQuota({ name: QUOTA, namespace: NS, body: { spec: { hard: { memory: `${2 * Math.ceil(podMemory / MI) + 50}Mi` } } } }, mergePatch);
    const done = await finalMigration(k, name, 180_000);
    expect(done.status.phase).toBe('Succeeded');
    expect(hasCondition(done)).toBe(false);
    const moved = (await k.vmis.get(NS, 'quota-vm')) as { status?: { nodeName?: string } };
    expect(moved.status?.nodeName).not.toBe(source);
    console.log(`quota rejection seen ${rejectedAfterMs} ms after the VMIM was created`);
  });
});

describe('automatic resource limits', () => {
  it('[test_id:11214] a quota on limits.memory and limits.cpu: the launcher Pod gets memory = request × 2 and cpu = 1, and runs', async () => {
    const ns = 'auto-limits';
    await k.core.createNamespace({ body: { metadata: { name: ns } } });
    const vmi = { ...counterVMI('limited'), metadata: { name: 'limited', namespace: ns } };
    const request = parseQuantity(renderLauncherResources(vmi as never).requests.memory)!;
    const expectedLimit = 2 * request;
    await k.core.createNamespacedResourceQuota({ namespace: ns, body: { metadata: { generateName: 'test-quota' }, spec: { hard: { 'limits.memory': `${Math.ceil(expectedLimit / MI) + 100}Mi`, 'limits.cpu': '1500m' } } } });
    await k.vmis.create(ns, vmi as never);
    const pod = await until('launcher Pod', async () => (await k.core.listNamespacedPod({ namespace: ns })).items[0], 60_000);
    const compute = pod.spec!.containers.find((c) => c.name === 'compute')!;
    expect(parseQuantity(compute.resources?.limits?.memory)).toBe(expectedLimit);
    expect(compute.resources?.limits?.cpu).toBe('1');
    await until('limited Running', async () => ((await k.vmis.get(ns, 'limited')) as { status?: { phase?: string } }).status?.phase === 'Running', 120_000);
  });
});
