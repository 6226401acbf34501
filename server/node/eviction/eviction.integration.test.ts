import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubeClients, type KubeClients } from '../../kube/clients';
import { startTestApiServer } from '../../kube/testing/api-server';
import { waitFor } from '../../kube/testing/wait-for';
import { Kubelet } from '../kubelet';
import { readProcessStartTime } from '../proc-stat';
import { parseEvictionHard, type EvictionThreshold } from './thresholds';
import { memoryUsageOf } from './pod-usage';

const NODE = 'node-evict';

function pod(name: string, command: string[], resources?: { requests: Record<string, string>; limits: Record<string, string> }): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName: NODE, restartPolicy: 'Always', containers: [{ name: 'main', image: 'host', command, resources }] },
  };
}

const pidOf = (p: V1Pod | undefined) => Number(p?.status?.containerStatuses?.[0]?.containerID?.replace('process://', '') ?? 0);
const isAlive = (pid: number) => pid > 0 && readProcessStartTime(pid) !== undefined;

// the node's real /proc/meminfo against a threshold far above it: the node is under memory pressure
describe('node-pressure eviction on a real kubelet', () => {
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  const stop = new AbortController();
  let running: Promise<void>;
  let kubelet: Kubelet;
  const thresholds: EvictionThreshold[] = [];

  beforeAll(async () => {
    api = await startTestApiServer();
    c = makeKubeClients(api.kc);
    // passes are driven by the test (one per call); the periodic loop would wait an hour
    kubelet = new Kubelet({ kc: api.kc, nodeName: NODE, dataDir: api.dataDir, leaseIntervalMs: 200, stopPodsOnExit: true, allowHostCommands: true, evictionHard: thresholds, evictionIntervalMs: 3_600_000 });
    running = kubelet.run(stop.signal);
  });
  afterAll(async () => {
    stop.abort();
    await running;
    await api?.stop();
  });

  const get = (name: string) => c.core.readNamespacedPod({ namespace: 'default', name }).catch(() => undefined);
  const runningPod = (name: string) => waitFor(async () => {
    const p = await get(name);
    return p?.status?.phase === 'Running' && pidOf(p) ? p : undefined;
  }, 15_000, `${name} Running`);
  const memoryPressure = async () => (await c.core.readNode({ name: NODE })).status?.conditions?.find((x) => x.type === 'MemoryPressure')?.status;

  it('evicts the BestEffort Pod using memory, not the Guaranteed one, with kube\'s status, event and no restart', async () => {
    // 64Mi held by a BestEffort Pod; a Guaranteed neighbour well within its request
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('hog', [process.execPath, '-e', 'globalThis.b = Buffer.alloc(64 * 2 ** 20, 1); setInterval(() => {}, 1e6)']) });
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('guaranteed', ['sleep', '600'], { requests: { memory: '256Mi', cpu: '100m' }, limits: { memory: '256Mi', cpu: '100m' } }) });
    const hog = await runningPod('hog');
    await waitFor(() => (memoryUsageOf([pidOf(hog)]) ?? 0) > 64 * 2 ** 20, 15_000, 'hog holds its 64Mi');
    const guaranteed = await runningPod('guaranteed');
    await waitFor(async () => (await c.core.readNode({ name: NODE }).catch(() => undefined))?.status?.conditions?.some((x) => x.type === 'MemoryPressure' && x.status === 'False'), 10_000, 'node registered');

    thresholds.push(...parseEvictionHard('memory.available<1000Ti'));
    await waitFor(async () => (await memoryPressure()) === 'True', 10_000, 'MemoryPressure=True from the configured threshold');

    expect(await kubelet.eviction.pass()).toBe('default/hog');
    const evicted = await waitFor(async () => {
      const p = await get('hog');
      return p?.status?.phase === 'Failed' ? p : undefined;
    }, 10_000, 'hog Failed');
    expect(evicted.status?.reason).toBe('Evicted');
    expect(evicted.status?.message).toMatch(/^The node was low on resource: memory\. Threshold quantity: 1000Ti, available: \d+(Ki)?\. Container main was using \d+Ki, request is 0, has larger consumption of memory\. $/);
    const usedKi = Number(/was using (\d+)Ki/.exec(evicted.status!.message!)![1]);
    expect(usedKi).toBeGreaterThan(64 * 1024); // the Buffer it holds, measured
    expect(evicted.status?.conditions?.find((x) => x.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'TerminationByKubelet' });
    // killed, grace 0; the container's termination record says why (virt-handler reads it for the VMI)
    expect(evicted.status?.containerStatuses?.[0].state?.terminated).toMatchObject({ exitCode: 137, reason: 'Evicted', message: evicted.status?.message });
    expect(isAlive(pidOf(hog))).toBe(false);

    const events = await c.core.listNamespacedEvent({ namespace: 'default' });
    const evictions = events.items.filter((e) => e.reason === 'Evicted');
    expect(evictions.map((e) => [e.involvedObject.name, e.type, e.message])).toEqual([['hog', 'Warning', evicted.status?.message]]);

    // the pressure is gone (the threshold lifted): the next pass evicts nothing, the neighbour keeps running
    thresholds.splice(0);
    expect(await kubelet.eviction.pass()).toBeUndefined();
    await waitFor(async () => (await memoryPressure()) === 'False', 10_000, 'MemoryPressure=False');
    await new Promise((r) => setTimeout(r, 1000)); // restartPolicy Always: an evicted Pod must still not come back
    expect((await get('guaranteed'))?.status?.phase).toBe('Running');
    expect(isAlive(pidOf(guaranteed))).toBe(true);
    const after = await get('hog');
    expect(after?.status?.phase).toBe('Failed');
    expect(after?.status?.containerStatuses?.[0].restartCount).toBe(0);
  });
});
