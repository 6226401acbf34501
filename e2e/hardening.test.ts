/**
 * kv up keeps its promises about its own processes: a hung component (it stops answering, it does
 * not exit) is killed and restarted by the liveness probe; a second `kv up` on the same data dir
 * refuses and touches nothing; the embedded kubelet runs no image but the launcher's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { CoreV1EventList, V1Node, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiGet } from '../server/up/readiness';
import { freePort, startCluster, type TestCluster } from './harness';

const kvBin = fileURLToPath(new URL('../bin/kv.mjs', import.meta.url));
let cluster: TestCluster;

beforeAll(async () => { cluster = await startCluster({ nodes: 1, console: false }); });
afterAll(async () => { await cluster?.stop(); });

/** pids of this cluster's `kv apiserver` processes */
function apiServerPids(): number[] {
  const out = spawnSync('pgrep', ['-f', `apiserver --data-dir ${cluster.dataDir} `], { encoding: 'utf8' }).stdout;
  return out.split('\n').filter(Boolean).map(Number);
}

async function until<T>(what: string, timeoutMs: number, f: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it.skipIf(!!process.env.KV_E2E_KUBECONFIG)('a hung API server (SIGSTOP) is killed and restarted by its liveness probe, and answers again', async () => {
  const [before] = apiServerPids();
  expect(before).toBeGreaterThan(0);
  process.kill(before, 'SIGSTOP');
  const started = Date.now();
  const after = await until('a new API server process', 30_000, () => apiServerPids().find((p) => p !== before));
  await until('the API server answering', 30_000, async () => (await apiGet(cluster.access, '/healthz', 1000)).status === 200 || undefined);
  expect(apiServerPids()).toEqual([after]); // the hung one is gone, not left stopped
  // no answer for the 12 s window (probes every 1 s): the hang is noticed within ~13 s
  expect(Date.now() - started).toBeLessThan(20_000);
});

it.skipIf(!!process.env.KV_E2E_KUBECONFIG)('a hung virt-handler (SIGSTOP) is restarted by its liveness probe and advertises a live endpoint again', async () => {
  const handlerPids = () => spawnSync('pgrep', ['-f', `handler --data-dir ${cluster.dataDir} `], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number);
  const [before] = handlerPids();
  expect(before).toBeGreaterThan(0);
  process.kill(before, 'SIGSTOP');
  const started = Date.now();
  await until('a new virt-handler process', 30_000, () => handlerPids().find((p) => p !== before));
  expect(handlerPids()).not.toContain(before);
  expect(Date.now() - started).toBeLessThan(20_000);
  await until('the node advertising a handler that answers', 30_000, async () => {
    const endpoint = (await apiGet<V1Node>(cluster.access, '/api/v1/nodes/node-1')).body?.metadata?.annotations?.['kubevirt.io/handler-endpoint'];
    return endpoint ? (await fetch(`${endpoint}/healthz`).then((r) => r.status === 200).catch(() => false)) || undefined : undefined;
  });
});

it.skipIf(!!process.env.KV_E2E_KUBECONFIG)('a second kv up on the same data dir refuses, naming the first, and the first cluster keeps running', async () => {
  const before = apiServerPids();
  const r = spawnSync(process.execPath, [kvBin, 'up', '--data-dir', cluster.dataDir, '--nodes', '1', '--no-console', '--api-port', String(await freePort())], { encoding: 'utf8', timeout: 60_000 });
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(new RegExp(`data dir ${cluster.dataDir} is in use by kv up \\(pid \\d+\\)`));
  expect(apiServerPids()).toEqual(before);
  expect((await apiGet(cluster.access, '/api/v1/nodes')).status).toBe(200);
  expect(execFileSync('kubectl', ['--kubeconfig', cluster.kubeconfig, 'get', 'nodes', '-o', 'name'], { encoding: 'utf8' })).toContain('node/node-1');
});

it.skipIf(!!process.env.KV_E2E_KUBECONFIG)('a Pod with any image but the launcher never runs on a node: it waits with ErrImagePull and says why', async () => {
  const marker = `/tmp/kv-pwned-${randomUUID()}`;
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'shell', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', `touch ${marker}`] }] } };
  execFileSync('kubectl', ['--kubeconfig', cluster.kubeconfig, 'apply', '-f', '-'], { input: JSON.stringify(pod) });
  const waiting = await until('the pod to be refused', 30_000, async () => {
    const p = (await apiGet<V1Pod>(cluster.access, '/api/v1/namespaces/default/pods/shell')).body;
    return p?.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'ErrImagePull' ? p.status.containerStatuses[0].state.waiting : undefined;
  });
  expect(waiting.message).toMatch(/image "busybox" not runnable by the embedded kubelet/);
  const events = (await apiGet<CoreV1EventList>(cluster.access, '/api/v1/namespaces/default/events')).body!.items as { involvedObject: { name: string }; reason: string; type: string }[];
  expect(events.some((e) => e.involvedObject.name === 'shell' && e.type === 'Warning')).toBe(true);
  expect(existsSync(marker)).toBe(false);
  execFileSync('kubectl', ['--kubeconfig', cluster.kubeconfig, 'delete', 'pod', 'shell', '--wait=true', '--timeout=30s']);
});
