import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubeClients, mergePatch, type KubeClients } from '../kube/clients';
import { startTestApiServer } from '../kube/testing/api-server';
import { waitFor } from '../kube/testing/wait-for';
import { Scheduler } from './scheduler';
import { makeNode, withAllocatable } from './testing-builders';

const memPod = (name: string, memory: string): V1Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c', command: ['sleep', '1'], resources: { requests: { memory } } }] },
});

describe('embedded scheduler on the embedded API server', () => {
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  const stop = new AbortController();
  let running: Promise<void>;

  const readPod = (name: string) => c.core.readNamespacedPod({ namespace: 'default', name });
  const boundNode = (name: string) => waitFor(async () => (await readPod(name)).spec?.nodeName, 10_000, `${name} bound`);

  beforeAll(async () => {
    api = await startTestApiServer();
    c = makeKubeClients(api.kc);
    for (const name of ['node-a', 'node-b']) {
      const node: V1Node = makeNode(name, withAllocatable({ memory: '1Gi' }));
      const created = await c.core.createNode({ body: { ...node, status: undefined } });
      await c.core.replaceNodeStatus({ name, body: { ...created, status: node.status } });
    }
    running = new Scheduler(api.kc).run(stop.signal);
  });
  afterAll(async () => {
    stop.abort();
    await running;
    await api?.stop();
  });

  it('spreads pods by free memory, marks an oversized pod Unschedulable with kube\'s message, and places it once room appears', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: memPod('first', '600Mi') });
    await c.core.createNamespacedPod({ namespace: 'default', body: memPod('second', '600Mi') });
    const placed = [await boundNode('first'), await boundNode('second')];
    expect(placed.sort()).toEqual(['node-a', 'node-b']);

    await c.core.createNamespacedPod({ namespace: 'default', body: memPod('third', '600Mi') });
    const cond = await waitFor(async () => (await readPod('third')).status?.conditions?.find((x) => x.type === 'PodScheduled'), 10_000, 'PodScheduled condition');
    expect(cond).toMatchObject({ status: 'False', reason: 'Unschedulable', message: '0/2 nodes are available: 2 Insufficient memory.' });
    const events = await c.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=third' });
    expect(events.items.map((e) => e.reason)).toContain('FailedScheduling');

    await c.core.deleteNamespacedPod({ namespace: 'default', name: 'first', gracePeriodSeconds: 0 });
    expect(['node-a', 'node-b']).toContain(await boundNode('third'));
  });

  it('reports cordoned nodes in the reason', async () => {
    await c.core.patchNode({ name: 'node-a', body: { spec: { unschedulable: true } } }, mergePatch);
    await c.core.createNamespacedPod({ namespace: 'default', body: memPod('huge', '4Gi') });
    const cond = await waitFor(async () => (await readPod('huge')).status?.conditions?.find((x) => x.type === 'PodScheduled'), 10_000, 'PodScheduled condition');
    expect(cond?.message).toBe('0/2 nodes are available: 1 Insufficient memory, 1 node(s) were unschedulable.');
  });
});
