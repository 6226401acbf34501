import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubeClients, mergePatch, type KubeClients } from '../kube/clients';
import { startTestApiServer } from '../kube/testing/api-server';
import { waitFor } from '../kube/testing/wait-for';
import { Kubelet } from './kubelet';
import type { PressureFigures } from './node-pressure';

const NODE = 'node-pressure';
const GI = 2 ** 30;

describe('MemoryPressure / DiskPressure on a real kubelet', () => {
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  const stop = new AbortController();
  let running: Promise<void>;
  let figures: PressureFigures = { memoryAvailableBytes: 8 * GI, nodefsAvailableBytes: 50 * GI, nodefsCapacityBytes: 100 * GI };

  beforeAll(async () => {
    api = await startTestApiServer();
    c = makeKubeClients(api.kc);
    const kubelet = new Kubelet({ kc: api.kc, nodeName: NODE, dataDir: api.dataDir, leaseIntervalMs: 200, stopPodsOnExit: true, pressureFigures: () => figures });
    running = kubelet.run(stop.signal);
  });
  afterAll(async () => {
    stop.abort();
    await running;
    await api?.stop();
  });

  const node = () => c.core.readNode({ name: NODE }).catch(() => undefined);
  const condition = async (type: string) => (await node())?.status?.conditions?.find((x) => x.type === type);

  it('reports pressure from the figures within a heartbeat, taints the node, and lifts both when space returns', async () => {
    await waitFor(async () => (await condition('MemoryPressure'))?.status === 'False', 10_000, 'registered');
    await c.core.patchNode({ name: NODE, body: { spec: { taints: [{ key: 'team', value: 'a', effect: 'NoSchedule' }] } } }, mergePatch);
    figures = { memoryAvailableBytes: 50 * 2 ** 20, nodefsAvailableBytes: 5 * GI, nodefsCapacityBytes: 100 * GI };
    const tainted = await waitFor(async () => {
      const n = await node();
      return (n?.spec?.taints?.length ?? 0) >= 3 ? n : undefined;
    }, 10_000, 'pressure taints');
    expect(tainted.status?.conditions?.find((x) => x.type === 'MemoryPressure')).toMatchObject({ status: 'True', reason: 'KubeletHasInsufficientMemory' });
    expect(tainted.status?.conditions?.find((x) => x.type === 'DiskPressure')).toMatchObject({ status: 'True', reason: 'KubeletHasDiskPressure' });
    expect(tainted.spec?.taints?.map((t) => t.key)).toEqual(expect.arrayContaining(['team', 'node.kubernetes.io/memory-pressure', 'node.kubernetes.io/disk-pressure']));

    figures = { memoryAvailableBytes: 8 * GI, nodefsAvailableBytes: 50 * GI, nodefsCapacityBytes: 100 * GI };
    await waitFor(async () => (await condition('DiskPressure'))?.status === 'False' && !(await node())?.spec?.taints?.some((t) => t.key.endsWith('-pressure')), 10_000, 'pressure lifted');
    expect((await node())?.spec?.taints?.map((t) => t.key)).toEqual(['team']);
  });
});
