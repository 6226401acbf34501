import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../data-dir';
import { makeKubeClients, type KubeClients } from '../kube/clients';
import { startTestApiServer } from '../kube/testing/api-server';
import { waitFor } from '../kube/testing/wait-for';
import { parseCriRecord } from '../kube/cri-log';
import { KV_SCRIPT } from './kubelet';
import { readProcessStartTime, signalProcessGroup } from './proc-stat';

const pidOf = (pod: V1Pod | undefined) => Number(pod?.status?.containerStatuses?.[0]?.containerID?.replace('process://', '') ?? 0);
const isAlive = (pid: number) => pid > 0 && readProcessStartTime(pid) !== undefined;

describe('kv node as a process: crash, restart, shutdown', () => {
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  let kubeconfig: string;
  const started: ChildProcess[] = [];
  const podPids: number[] = [];

  function startNode(name: string, ...flags: string[]): ChildProcess {
    const child = spawn(process.execPath, [KV_SCRIPT, 'node', '--name', name, '--data-dir', api.dataDir, '--kubeconfig', kubeconfig, '--allow-host-commands', '--no-pod-network', ...flags], {
      stdio: 'ignore',
      env: { ...process.env, KV_LOG_LEVEL: 'warn' },
    });
    started.push(child);
    return child;
  }
  const exited = (child: ChildProcess) => new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));

  async function runSleepPod(name: string, node: string, command = ['sleep', '1000']): Promise<V1Pod> {
    const body: V1Pod = { metadata: { name, namespace: 'default' }, spec: { nodeName: node, restartPolicy: 'Never', containers: [{ name: 'main', command }] } };
    await c.core.createNamespacedPod({ namespace: 'default', body });
    const pod = await waitFor(async () => {
      const p = await c.core.readNamespacedPod({ namespace: 'default', name }).catch(() => undefined);
      return p?.status?.phase === 'Running' ? p : undefined;
    }, 20_000, `${name} Running`);
    podPids.push(pidOf(pod));
    return pod;
  }

  beforeAll(async () => {
    api = await startTestApiServer();
    c = makeKubeClients(api.kc);
    kubeconfig = join(api.dataDir, 'test-kubeconfig');
    writeFileSync(kubeconfig, api.kc.exportConfig(), { mode: 0o600 });
  });
  afterAll(async () => {
    for (const child of started) child.kill('SIGKILL');
    for (const pid of podPids) signalProcessGroup(pid, 'SIGKILL');
    await api?.stop();
  });

  it('kill -9 of the kubelet leaves the pod running; the restarted kubelet re-adopts it and still manages it', async () => {
    const first = startNode('node-r');
    const before = await runSleepPod('survivor', 'node-r');
    const pid = pidOf(before);
    const readLease = () => c.coordination.readNamespacedLease({ namespace: 'kube-node-lease', name: 'node-r' }).catch(() => undefined);
    const oldRenew = String((await readLease())?.spec?.renewTime);
    first.kill('SIGKILL');
    await exited(first);
    expect(isAlive(pid)).toBe(true);

    startNode('node-r');
    // the new kubelet is up once it renews the lease; it must report the same process, not a new one
    await waitFor(async () => String((await readLease())?.spec?.renewTime) !== oldRenew, 20_000, 'lease renewed by the new kubelet');
    const after = await c.core.readNamespacedPod({ namespace: 'default', name: 'survivor' });
    expect(after.status?.phase).toBe('Running');
    expect(pidOf(after)).toBe(pid);
    expect(after.status?.containerStatuses?.[0].restartCount).toBe(0);
    expect(isAlive(pid)).toBe(true);

    await c.core.deleteNamespacedPod({ namespace: 'default', name: 'survivor', gracePeriodSeconds: 5 });
    await waitFor(async () => !(await c.core.readNamespacedPod({ namespace: 'default', name: 'survivor' }).catch(() => undefined)), 20_000, 'pod deleted');
    expect(isAlive(pid)).toBe(false);
  });

  it('a container that writes while its kubelet is down keeps running; the restarted kubelet logs what it wrote meanwhile', async () => {
    const first = startNode('node-l');
    const pod = await runSleepPod('ticker', 'node-l', ['sh', '-c', 'i=0; while true; do i=$((i+1)); echo "tick $i"; sleep 0.1; done']);
    const logFile = join(dataPaths(api.dataDir).node('node-l'), 'pods', pod.metadata!.uid!, 'main.log');
    const ticks = () => readFileSync(logFile, 'latin1').split('\n').filter(Boolean).map((l) => {
      const r = parseCriRecord(Buffer.from(l, 'latin1'));
      expect(r?.stream).toBe('stdout');
      return Number(/^tick (\d+)$/.exec(r!.content.toString())![1]);
    });
    await waitFor(() => ticks().length >= 3, 10_000, 'first ticks');
    first.kill('SIGKILL');
    await exited(first);
    const atKill = ticks().at(-1)!;
    await new Promise((r) => setTimeout(r, 2000));
    expect(isAlive(pidOf(pod))).toBe(true); // no SIGPIPE with nobody reading
    expect(ticks().at(-1)! - atKill).toBeLessThanOrEqual(1);
    startNode('node-l');
    await waitFor(() => ticks().at(-1)! > atKill + 15, 20_000, 'ticks written while the kubelet was down');
    const all = ticks();
    expect(all).toEqual(all.map((_, i) => i + 1)); // none lost, none twice
  });

  it('a kubelet restarted after its pod was force-deleted kills the orphan and removes its dir', async () => {
    const first = startNode('node-o');
    const pod = await runSleepPod('orphan', 'node-o');
    first.kill('SIGKILL');
    await exited(first);
    await c.core.deleteNamespacedPod({ namespace: 'default', name: 'orphan', gracePeriodSeconds: 0 });
    startNode('node-o');
    await waitFor(() => !isAlive(pidOf(pod)), 20_000, 'orphan killed');
    const podDir = join(dataPaths(api.dataDir).node('node-o'), 'pods', pod.metadata!.uid!);
    await waitFor(() => !existsSync(podDir), 5000, 'pod dir removed');
  });

  it('--stop-pods-on-exit: SIGTERM to the kubelet stops its pods before it exits', async () => {
    const kubelet = startNode('node-s', '--stop-pods-on-exit');
    const pod = await runSleepPod('stopped', 'node-s');
    kubelet.kill('SIGTERM');
    await exited(kubelet);
    expect(isAlive(pidOf(pod))).toBe(false);
  });
});
