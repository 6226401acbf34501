import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubeClients, type KubeClients } from '../../kube/clients';
import { startTestApiServer } from '../../kube/testing/api-server';
import { waitFor } from '../../kube/testing/wait-for';
import { Kubelet } from '../kubelet';
import { readProcessStartTime } from '../proc-stat';
import { log } from '../../log';
import { detectLayout, detectPodCgroups, nodeCgroupName } from './detect-cgroups';
import { PodIsolation } from './pod-isolation';

const NODE = 'node-cg';
const layout = detectLayout(readFileSync('/proc/self/mounts', 'utf8'), readFileSync('/proc/self/cgroup', 'utf8'), (d) => {
  try {
    return readFileSync(join(d, 'cgroup.controllers'), 'utf8');
  } catch {
    return '';
  }
});

function pod(name: string, script: string, limits: Record<string, string>): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName: NODE, restartPolicy: 'Never', containers: [{ name: 'main', image: 'host', command: ['sh', '-c', script], resources: { limits } }] },
  };
}

const pidOf = (p: V1Pod | undefined) => Number(p?.status?.containerStatuses?.[0]?.containerID?.replace('process://', '') ?? 0);

// real kernel cgroups: this machine mounts v1 cpu and memory controllers (the v2 driver is unit-tested)
describe.runIf(layout?.version === 'v1' && process.getuid?.() === 0)('per-Pod cgroups on cgroup v1 (real kubelet)', () => {
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  const stop = new AbortController();
  let running: Promise<void>;
  let podDir: (controller: 'cpu' | 'memory', uid: string) => string;

  beforeAll(async () => {
    api = await startTestApiServer();
    c = makeKubeClients(api.kc);
    const node = nodeCgroupName(NODE, api.dataDir);
    podDir = (ctl, uid) => join(layout!.v1![ctl], node, `pod${uid}`);
    const kubelet = new Kubelet({ kc: api.kc, nodeName: NODE, dataDir: api.dataDir, nodesTotal: 2, leaseIntervalMs: 500, stopPodsOnExit: true, allowHostCommands: true });
    running = kubelet.run(stop.signal);
  });
  afterAll(async () => {
    stop.abort();
    await running;
    await api?.stop();
  });

  const get = (name: string) => c.core.readNamespacedPod({ namespace: 'default', name }).catch(() => undefined);
  const inPhase = (name: string, phase: string) =>
    waitFor(async () => {
      const p = await get(name);
      return p?.status?.phase === phase ? p : undefined;
    }, 20_000, `${name} ${phase}`);

  it('kills only the Pod that allocates past its memory limit (OOMKilled); its neighbour and the kubelet keep running', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('calm', 'exec sleep 1000', { cpu: '250m', memory: '64Mi' }) });
    const calm = await inPhase('calm', 'Running');
    const calmUid = calm.metadata!.uid!;
    // the cgroup holds the container's process with the Pod's limits
    expect(readFileSync(join(podDir('memory', calmUid), 'memory.limit_in_bytes'), 'utf8').trim()).toBe(String(64 * 2 ** 20));
    expect(readFileSync(join(podDir('cpu', calmUid), 'cpu.cfs_quota_us'), 'utf8').trim()).toBe('25000');
    expect(readFileSync(join(podDir('memory', calmUid), 'cgroup.procs'), 'utf8')).toContain(String(pidOf(calm)));
    // CPU weight as kubelet sizes it: the Pod by its request (250m → 256 shares), the node group by its
    // allocatable CPU (half the machine: nodesTotal 2), the kubevirt-ts group above the nodes by the machine
    const cpus = availableParallelism();
    expect(readFileSync(join(podDir('cpu', calmUid), 'cpu.shares'), 'utf8').trim()).toBe('256');
    expect(readFileSync(join(podDir('cpu', calmUid), '..', 'cpu.shares'), 'utf8').trim()).toBe(String(Math.floor((Math.max(100, Math.floor((cpus * 1000) / 2)) * 1024) / 1000)));
    expect(readFileSync(join(podDir('cpu', calmUid), '..', '..', 'cpu.shares'), 'utf8').trim()).toBe(String(cpus * 1024));

    // `tail` holds a newline-free stream in memory: 512Mi against a 64Mi limit
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('hog', 'head -c 512M /dev/zero | tail > /dev/null', { memory: '64Mi' }) });
    const hog = await inPhase('hog', 'Failed');
    expect(hog.status?.containerStatuses?.[0].state?.terminated).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });

    const after = await get('calm');
    expect(after?.status?.phase).toBe('Running');
    expect(readProcessStartTime(pidOf(calm))).toBeDefined();
  }, 40_000);

  it('restarts an OOMKilled container under OnFailure; lastState says OOMKilled, the new one is not blamed for it', async () => {
    const script = 'if [ -e "$KV_POD_DIR/once" ]; then exit 0; fi; touch "$KV_POD_DIR/once"; head -c 512M /dev/zero | tail > /dev/null';
    await c.core.createNamespacedPod({ namespace: 'default', body: { ...pod('relapse', script, { memory: '64Mi' }), spec: { ...pod('relapse', script, { memory: '64Mi' }).spec!, restartPolicy: 'OnFailure' } } });
    const p = await waitFor(async () => {
      const x = await get('relapse');
      const st = x?.status?.containerStatuses?.[0];
      return st?.restartCount === 1 && x?.status?.phase === 'Succeeded' ? x : undefined;
    }, 20_000, 'restarted after the OOM kill, then done');
    expect(p.status?.containerStatuses?.[0].lastState?.terminated).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });
    expect(p.status?.containerStatuses?.[0].state?.terminated).toMatchObject({ reason: 'Completed', exitCode: 0 });
    await c.core.deleteNamespacedPod({ namespace: 'default', name: 'relapse', gracePeriodSeconds: 0 });
  }, 30_000);

  it('removes the Pod cgroup when the Pod is deleted', async () => {
    const calm = (await get('calm'))!;
    const uid = calm.metadata!.uid!;
    await c.core.deleteNamespacedPod({ namespace: 'default', name: 'calm', gracePeriodSeconds: 0 });
    await waitFor(async () => !(await get('calm')), 10_000, 'calm removed');
    await waitFor(() => !existsSync(podDir('memory', uid)) && !existsSync(podDir('cpu', uid)), 10_000, 'cgroup removed');
  });

  it('a CPU-bound Pod gets no more than its quota', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('spin', 'while :; do :; done', { cpu: '100m', memory: '32Mi' }) });
    const p = await inPhase('spin', 'Running');
    const pid = pidOf(p);
    // utime + stime of the busy loop, in clock ticks (100 per second)
    const usage = () => {
      const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      return (Number(f[11]) + Number(f[12])) / 100;
    };
    const t0 = Date.now();
    const u0 = usage();
    await new Promise((r) => setTimeout(r, 2000));
    const share = (usage() - u0) / ((Date.now() - t0) / 1000);
    expect(share).toBeLessThan(0.15); // 100m = 10% of one CPU (a busy loop would take 100%)
    expect(share).toBeGreaterThan(0.02);
    expect(readFileSync(join(podDir('cpu', p.metadata!.uid!), 'cpu.stat'), 'utf8')).toMatch(/nr_throttled [1-9]/);
  });

  it('a kubelet start removes Pod cgroups no Pod accounts for, killing what they still hold', async () => {
    const cgroups = detectPodCgroups('node-stale', api.dataDir)!;
    cgroups.ensure('left-behind', { memoryBytes: 32 * 2 ** 20 });
    cgroups.ensure('kept', {});
    const { spawn } = await import('node:child_process');
    const orphan = spawn('sleep', ['1000'], { stdio: 'ignore' });
    cgroups.addProcess('left-behind', orphan.pid!);
    const isolation = new PodIsolation(cgroups, log);
    expect(isolation.removeStale(new Set(['kept']))).toEqual(['left-behind']);
    await waitFor(() => !cgroups.list().includes('left-behind'), 10_000, 'stale cgroup removed');
    expect(orphan.signalCode ?? (await new Promise((r) => orphan.once('exit', (_c, sig) => r(sig))))).toBe('SIGKILL');
    expect(cgroups.list()).toEqual(['kept']);
    await isolation.releaseAll();
    expect(cgroups.list()).toEqual([]);
  });
});
