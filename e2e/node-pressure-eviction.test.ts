/**
 * Node-pressure eviction with a real guest on a 2-node `kv up`: node-1's kubelet is given a memory
 * threshold far above what the machine has (its `eviction-hard` file), so it reports MemoryPressure,
 * taints itself and evicts the launcher Pod. The VMI fails with reason Evicted, and the VM
 * (runStrategy Always) gets a new VMI that the scheduler places on node-2, the node without the taint.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { dataPaths } from '../server/data-dir';
import { evictionHardFile } from '../server/node/eviction/threshold-source';
import { mergePatch, type KubeClients } from '../server/kube/clients';
import { clientsOf, until } from './migration-helpers';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { createVM, demoVM, NS, readVMI } from './support/vm-fixtures';

const VM = 'pressed';
let lc: LifecycleCluster;
let k: KubeClients;

beforeAll(async () => {
  lc = await startLifecycleCluster({ nodes: 2 });
  k = clientsOf(lc.cluster);
});
afterAll(async () => {
  await lc?.stop();
});

const launcherPodsOf = async (vmiUID: string): Promise<V1Pod[]> =>
  (await k.core.listNamespacedPod({ namespace: NS })).items.filter((p) => p.metadata?.ownerReferences?.some((o) => o.uid === vmiUID));

describe('node-pressure eviction of a launcher Pod', () => {
  it('evicts the launcher on the pressured node; the VMI fails Evicted; the VM restarts on the other node', async () => {
    await k.core.patchNode({ name: 'node-2', body: { spec: { unschedulable: true } } }, mergePatch);
    await createVM(lc.admin, demoVM(VM, { runStrategy: 'Always' }));
    const first = await until(`${VM} Running`, async () => {
      const v = await readVMI(lc.admin, VM);
      return v?.status?.phase === 'Running' && v;
    }, 180_000);
    expect(first.status.nodeName).toBe('node-1');
    await k.core.patchNode({ name: 'node-2', body: { spec: { unschedulable: false } } }, mergePatch);

    const file = evictionHardFile(dataPaths(lc.cluster.dataDir).node('node-1'));
    const t0 = Date.now();
    writeFileSync(file, 'memory.available<1000Ti\n');
    try {
      // the Pod's Failed/Evicted status, or — when the VM controller already replaced the failed VMI and
      // its Pods went with it before a poll saw that status — the kubelet's Evicted event for it
      const evicted = await until('launcher Pod evicted', async () => {
        const failed = (await launcherPodsOf(first.metadata.uid)).find((p) => p.status?.phase === 'Failed');
        const event = (await k.core.listNamespacedEvent({ namespace: NS })).items
          .find((e) => e.reason === 'Evicted' && e.type === 'Warning' && e.involvedObject.kind === 'Pod' && e.involvedObject.name?.startsWith(`virt-launcher-${VM}-`));
        if (failed) return { reason: failed.status?.reason, message: failed.status?.message ?? '', event };
        return event && { reason: 'Evicted', message: event.message ?? '', event };
      }, 60_000);
      const evictedMs = Date.now() - t0;
      expect(evicted.reason).toBe('Evicted');
      expect(evicted.message).toMatch(/^The node was low on resource: memory\. Threshold quantity: 1000Ti, available: \d+(Ki)?\. /);
      // published before the eviction, so the VM's next VMI cannot be placed back on node-1
      const node1 = await k.core.readNode({ name: 'node-1' });
      expect(node1.spec?.taints?.map((t) => t.key)).toContain('node.kubernetes.io/memory-pressure');
      expect(node1.status?.conditions?.find((c) => c.type === 'MemoryPressure')?.status).toBe('True');

      // the handler's record of the failure (the VMI itself may be replaced at once by the VM controller)
      await until('the VMI failed with reason Evicted', async () => {
        const list = await k.core.listNamespacedEvent({ namespace: NS });
        return list.items.some((e) => e.involvedObject.uid === first.metadata.uid && e.reason === 'Stopped' && e.message?.includes('Evicted'));
      }, 30_000);
      await until('the kubelet\'s Evicted event', async () => (await k.core.listNamespacedEvent({ namespace: NS })).items
        .some((e) => e.reason === 'Evicted' && e.type === 'Warning' && e.involvedObject.name?.startsWith(`virt-launcher-${VM}-`)), 30_000);

      const second = await until('a new VMI Running', async () => {
        const v = await readVMI(lc.admin, VM);
        return v?.metadata?.uid !== first.metadata.uid && v?.status?.phase === 'Running' && v;
      }, 180_000);
      expect(second.status.nodeName).toBe('node-2');
      process.stderr.write(`node-pressure eviction: launcher evicted ${evictedMs} ms after the threshold; new VMI Running on node-2 ${Date.now() - t0} ms after it\n`);
    } finally {
      rmSync(file, { force: true });
    }
  });
});
