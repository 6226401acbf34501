/**
 * Evacuation on `kv up` with real guests and the real kubectl: `kubectl drain node-1` with two
 * LiveMigrate demo guests on it. The launcher evictions are refused with 429 while the evacuation
 * controller live-migrates both guests to node-2; drain then completes, node-1 stays cordoned, and
 * each guest's in-memory counter carries on where it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClients } from '../server/kube/clients';
import type { TestCluster } from './harness';
import { clientsOf, CounterReader, getVMI, NS, startGuest, until } from './migration-helpers';
import { makeKubectl, type Kubectl } from './support/kubectl';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import type { VirtualMachineInstanceMigration } from '../lib/kubevirt';

const GUESTS = ['evac-a', 'evac-b'];
let lc: LifecycleCluster;
let cluster: TestCluster;
let k: KubeClients;
let kubectl: Kubectl;

beforeAll(async () => {
  lc = await startLifecycleCluster({ nodes: 2 }); // kv up --no-console + virt-api (the eviction webhook)
  cluster = lc.cluster;
  k = clientsOf(cluster);
  kubectl = makeKubectl(cluster.kubeconfig);
});
afterAll(async () => {
  kubectl?.dispose();
  await lc?.stop();
});

async function run(...args: string[]): Promise<string> {
  const r = await kubectl.run(...args);
  expect(r.code, `kubectl ${args.join(' ')}\n${r.out}\n${r.err}`).toBe(0);
  return r.out + r.err;
}

describe('kubectl drain', () => {
  it('live-migrates LiveMigrate guests off the drained node; their memory survives', async () => {
    await run('cordon', 'node-2');
    for (const name of GUESTS) expect((await startGuest(k, name)).status.nodeName).toBe('node-1');
    await run('uncordon', 'node-2');
    const seen: Record<string, number> = {};
    for (const name of GUESTS) {
      const reader = await CounterReader.open(cluster, k, name);
      seen[name] = await reader.past(2);
      reader.close();
    }

    const t0 = Date.now();
    const drained = await kubectl.run('drain', 'node-1', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=120s');
    if (drained.code !== 0) {
      // say where the evacuation stopped (a rare CI failure left one guest's evacuation "in progress")
      const states = ((await k.migrations.list(NS)).items as { metadata: { name?: string }; spec?: { vmiName?: string }; status?: { phase?: string; migrationState?: unknown } }[])
        .map((m) => `${m.metadata.name} ${m.spec?.vmiName} ${m.status?.phase} ${JSON.stringify(m.status?.migrationState ?? {})}`);
      const vmis = await Promise.all(GUESTS.map(async (n) => `${n} ${JSON.stringify((await getVMI(k, n))?.status?.migrationState ?? {})}`));
      process.stderr.write(`drain failed; migrations:\n${states.join('\n')}\nVMIs:\n${vmis.join('\n')}\n`);
    }
    expect(drained.code, `kubectl drain\n${drained.out}\n${drained.err}`).toBe(0);
    const out = drained.out + drained.err;
    const drainMs = Date.now() - t0;
    expect(out).toContain('Eviction triggered evacuation of VMI');
    expect(out).toContain('node/node-1 drained');

    const node = await k.core.readNode({ name: 'node-1' });
    expect(node.spec?.unschedulable).toBe(true);
    const migrations = (await k.migrations.list(NS)).items as VirtualMachineInstanceMigration[];
    for (const name of GUESTS) {
      const vmi = await getVMI(k, name);
      expect(vmi.status).toMatchObject({ phase: 'Running', nodeName: 'node-2' });
      expect(vmi.status.evacuationNodeName).toBeUndefined();
      const evac = migrations.filter((m) => m.spec.vmiName === name && m.metadata.annotations?.['kubevirt.io/evacuationMigration'] === 'node-1');
      expect(evac.map((m) => [m.spec.priority, m.status?.phase])).toContainEqual(['system-critical', 'Succeeded']);
      const reader = await CounterReader.open(cluster, k, name);
      const next = await reader.past(seen[name]);
      expect(reader.values[0]).toBeGreaterThanOrEqual(seen[name]);
      reader.close();
      process.stderr.write(`drain: ${name} node-1 → node-2, counter ${seen[name]} → ${next}\n`);
    }
    const left = await k.core.listNamespacedPod({ namespace: NS, fieldSelector: 'spec.nodeName=node-1' });
    await until('no pods left on node-1', async () => (await k.core.listNamespacedPod({ namespace: NS, fieldSelector: 'spec.nodeName=node-1' })).items.length === 0 || undefined, 30_000);
    process.stderr.write(`drain: ${drainMs} ms for ${GUESTS.length} guests (${left.items.length} pods were still terminating)\n`);
  });
});
