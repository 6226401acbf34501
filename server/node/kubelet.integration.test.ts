import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../data-dir';
import { makeKubeClients, mergePatch, type KubeClients } from '../kube/clients';
import { startTestApiServer } from '../kube/testing/api-server';
import { waitFor } from '../kube/testing/wait-for';
import { Kubelet } from './kubelet';
import { readProcessStartTime } from './proc-stat';

const NODE = 'node-it';

function shellPod(name: string, script: string, extra: Partial<V1Pod['spec']> = {}): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName: NODE, restartPolicy: 'Never', containers: [{ name: 'main', image: 'host', command: ['sh', '-c', script] }], ...extra },
  };
}

const pidOf = (pod: V1Pod | undefined) => Number(pod?.status?.containerStatuses?.[0]?.containerID?.replace('process://', '') ?? 0);
const isAlive = (pid: number) => pid > 0 && readProcessStartTime(pid) !== undefined;

describe('process-kubelet on the embedded API server', () => {
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  const stop = new AbortController();
  let kubelet: Kubelet;
  let running: Promise<void>;

  beforeAll(async () => {
    api = await startTestApiServer();
    c = makeKubeClients(api.kc);
    kubelet = new Kubelet({ kc: api.kc, nodeName: NODE, dataDir: api.dataDir, nodesTotal: 2, leaseIntervalMs: 500, restartBackoffBaseMs: 50, stopPodsOnExit: true, allowHostCommands: true });
    running = kubelet.run(stop.signal);
  });
  afterAll(async () => {
    stop.abort(); // stopPodsOnExit: the kubelet kills its pods' processes before run() returns
    await running;
    await api?.stop();
  });

  const getPod = (name: string) => c.core.readNamespacedPod({ namespace: 'default', name }).catch(() => undefined);

  it('registers a Ready node with half the machine and renews its lease', async () => {
    const node = await waitFor(() => c.core.readNode({ name: NODE }).catch(() => undefined));
    expect(node.metadata?.labels).toMatchObject({ 'kubernetes.io/hostname': NODE, 'kubevirt.io/schedulable': 'true' });
    expect(node.status?.conditions?.find((x) => x.type === 'Ready')?.status).toBe('True');
    expect(node.status?.allocatable?.pods).toBe('110');
    const lease = await waitFor(() => c.coordination.readNamespacedLease({ namespace: 'kube-node-lease', name: NODE }).catch(() => undefined));
    expect(lease.spec?.holderIdentity).toBe(NODE);
  });

  it('restores Ready=True after something marked the node Unknown, and re-registers a deleted Node', async () => {
    const node = await c.core.readNode({ name: NODE });
    const conditions = node.status!.conditions!.map((x) => (x.type === 'Ready' ? { ...x, status: 'Unknown', reason: 'NodeStatusUnknown' } : x));
    await c.core.patchNodeStatus({ name: NODE, body: { status: { conditions } } }, mergePatch);
    await waitFor(async () => (await c.core.readNode({ name: NODE })).status?.conditions?.find((x) => x.type === 'Ready')?.status === 'True', 10_000, 'Ready again');
    await c.core.deleteNode({ name: NODE });
    await waitFor(() => c.core.readNode({ name: NODE }).catch(() => undefined), 10_000, 'node re-registered');
  });

  it('runs a pod to Running then Succeeded, with its env and log in the pod dir', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: shellPod('once', 'echo "dir=$KV_POD_DIR pod=$POD_NAME"; sleep 1') });
    const runningPod = await waitFor(async () => {
      const p = await getPod('once');
      return p?.status?.phase === 'Running' ? p : undefined;
    }, 10_000, 'Running');
    expect(runningPod.status?.podIP).toBe('127.0.0.1');
    expect(runningPod.status?.conditions?.find((x) => x.type === 'Ready')?.status).toBe('True');
    const done = await waitFor(async () => {
      const p = await getPod('once');
      return p?.status?.phase === 'Succeeded' ? p : undefined;
    }, 10_000, 'Succeeded');
    expect(done.status?.containerStatuses?.[0].state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    const dir = join(dataPaths(api.dataDir).node(NODE), 'pods', done.metadata!.uid!);
    expect(readFileSync(join(dir, 'main.log'), 'utf8')).toContain(`dir=${dir} pod=once`);
    const events = await c.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=once' });
    expect(events.items.map((e) => [e.reason, e.message])).toContainEqual(['Started', 'Started container main']);
  });

  it('reports a failing command with its exit code and termination.json message', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: shellPod('fails', 'echo \'{"reason":"BadThing","message":"it broke"}\' > "$KV_POD_DIR/termination.json"; exit 3') });
    const p = await waitFor(async () => {
      const x = await getPod('fails');
      return x?.status?.phase === 'Failed' ? x : undefined;
    }, 10_000, 'Failed');
    expect(p.status?.containerStatuses?.[0].state?.terminated).toMatchObject({ exitCode: 3, reason: 'BadThing', message: 'it broke' });
  });

  it('restarts a failing container under restartPolicy OnFailure', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: shellPod('flaky', 'exit 1', { restartPolicy: 'OnFailure' }) });
    const p = await waitFor(async () => {
      const x = await getPod('flaky');
      return (x?.status?.containerStatuses?.[0].restartCount ?? 0) >= 2 ? x : undefined;
    }, 15_000, 'restarts');
    expect(p.status?.phase).toBe('Running');
    expect(p.status?.containerStatuses?.[0].lastState?.terminated?.exitCode).toBe(1);
  });

  it('honours the grace period on delete: SIGTERM first, SIGKILL at the deadline, then removes the pod', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: shellPod('stubborn', "trap '' TERM; sleep 1000 & wait; sleep 1000") });
    const p = await waitFor(async () => {
      const x = await getPod('stubborn');
      return x?.status?.phase === 'Running' ? x : undefined;
    }, 10_000, 'Running');
    const pid = pidOf(p);
    expect(isAlive(pid)).toBe(true);
    const t0 = Date.now();
    await c.core.deleteNamespacedPod({ namespace: 'default', name: 'stubborn', gracePeriodSeconds: 2 });
    await waitFor(async () => !(await getPod('stubborn')), 10_000, 'pod removed');
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(1900);
    expect(took).toBeLessThan(6000);
    expect(isAlive(pid)).toBe(false);
  });

  it('stops a cooperative process at SIGTERM without waiting for the grace period', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: shellPod('polite', 'exec sleep 1000') });
    const p = await waitFor(async () => {
      const x = await getPod('polite');
      return x?.status?.phase === 'Running' ? x : undefined;
    }, 10_000, 'Running');
    const t0 = Date.now();
    await c.core.deleteNamespacedPod({ namespace: 'default', name: 'polite', gracePeriodSeconds: 30 });
    await waitFor(async () => !(await getPod('polite')), 10_000, 'pod removed');
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(isAlive(pidOf(p))).toBe(false);
  });
});
