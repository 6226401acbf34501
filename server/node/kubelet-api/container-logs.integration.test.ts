import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../../data-dir';
import { criLogText } from '../../kube/cri-log';
import type { TestServer } from '../../apiserver/testing/test-server';
import type { KubeClients } from '../../kube/clients';
import { waitFor } from '../../kube/testing/wait-for';
import { startKubeletHarness, type KubeletHarness } from '../testing/kubelet-harness';
import type { Kubectl } from '../../../e2e/support/kubectl';

const NODE = 'node-logs';
let h: KubeletHarness;
let t: TestServer;
let c: KubeClients;

let adminKubectl: Kubectl;
let viewerKubectl: Kubectl;
const admin = (...args: string[]) => adminKubectl.run(...args);

function pod(name: string, script: string, more: V1Container[] = []): V1Pod {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' },
    spec: { nodeName: NODE, restartPolicy: 'Never', containers: [{ name: 'main', image: 'host', command: ['sh', '-c', script] }, ...more] },
  };
}

async function runningPod(name: string): Promise<V1Pod> {
  return waitFor(async () => {
    const p = await c.core.readNamespacedPod({ namespace: 'default', name }).catch(() => undefined);
    return p?.status?.phase === 'Running' ? p : undefined;
  }, 15_000, `${name} Running`);
}

beforeAll(async () => {
  h = await startKubeletHarness(NODE);
  ({ t, c, admin: adminKubectl, viewer: viewerKubectl } = h);
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('kubectl logs through the kubelet API', () => {
  it('prints a container log, its tail and a byte limit; a viewer may read it', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('talker', 'echo one; echo two; echo three; sleep 60') });
    await runningPod('talker');
    await waitFor(async () => (await admin('logs', 'talker')).out === 'one\ntwo\nthree\n', 10_000, 'three lines');
    expect(await admin('logs', 'talker', '--tail=1')).toMatchObject({ code: 0, out: 'three\n' });
    expect(await admin('logs', 'talker', '--tail=0')).toMatchObject({ code: 0, out: '' });
    expect(await admin('logs', 'talker', '--limit-bytes=6')).toMatchObject({ code: 0, out: 'one\ntw' });
    expect(await viewerKubectl.run('logs', 'talker')).toMatchObject({ code: 0, out: 'one\ntwo\nthree\n' });
  });

  it('kubectl logs --timestamps, --since and --since-time: each line with the time it was written, stderr with stdout', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('timed', 'echo early; echo oops >&2; sleep 3; printf "late "; echo line; sleep 60') });
    await runningPod('timed');
    await waitFor(async () => (await admin('logs', 'timed')).out === 'early\noops\nlate line\n', 15_000, 'all lines');
    const stamped = await admin('logs', 'timed', '--timestamps');
    expect(stamped.code).toBe(0);
    const lines = stamped.out.trimEnd().split('\n').map((l) => /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z) (.*)$/.exec(l));
    expect(lines.map((m) => m?.[2])).toEqual(['early', 'oops', 'late line']);
    const times = lines.map((m) => Date.parse(m![1]));
    expect(Math.abs(times[0] - Date.now())).toBeLessThan(60_000);
    expect(times[2] - times[0]).toBeGreaterThanOrEqual(2_500); // the sleep between them
    // since the last line's time (second precision, as kubectl sends it): only that line
    const sinceTime = new Date(Math.ceil(times[2] / 1000) * 1000 - 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    expect(await admin('logs', 'timed', `--since-time=${sinceTime}`)).toMatchObject({ code: 0, out: 'late line\n' });
    const age = Math.ceil((Date.now() - times[2]) / 1000 + 1.5); // since ~1.5 s before the last line: after the others (3 s earlier)
    expect(await admin('logs', 'timed', `--since=${age}s`)).toMatchObject({ code: 0, out: 'late line\n' });
    expect(await admin('logs', 'timed', '--since=1h', '--tail=2')).toMatchObject({ code: 0, out: 'oops\nlate line\n' });
    expect((await admin('logs', 'timed', '--timestamps', '--tail=1')).out).toBe(`${lines[2]![0]}\n`);
  });

  it('a restarted container: kubectl logs shows the current run, --previous the one before (the kubelet keeps reading the same pipe)', async () => {
    const body = pod('looper', 'echo "run at $(date +%s%N)"; exit 1');
    body.spec!.restartPolicy = 'Always';
    await c.core.createNamespacedPod({ namespace: 'default', body });
    await waitFor(async () => ((await c.core.readNamespacedPod({ namespace: 'default', name: 'looper' })).status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2, 30_000, 'two restarts');
    const previous = await admin('logs', 'looper', '--previous');
    const current = await admin('logs', 'looper');
    expect(previous.code, previous.err).toBe(0);
    expect(current.code, current.err).toBe(0);
    // one run each, none lost or twice: the previous run is older than the current one
    expect(previous.out).toMatch(/^run at \d+\n$/);
    expect(current.out).toMatch(/^run at \d+\n$/);
    expect(BigInt(previous.out.slice(7, -1))).toBeLessThan(BigInt(current.out.slice(7, -1)));
    const p = await c.core.readNamespacedPod({ namespace: 'default', name: 'looper' });
    const dir = join(dataPaths(t.dataDir).node(NODE), 'pods', p.metadata!.uid!);
    expect(criLogText(readFileSync(join(dir, 'main.previous.log')))).toBe(previous.out);
    await c.core.deleteNamespacedPod({ namespace: 'default', name: 'looper', gracePeriodSeconds: 0 });
  });

  it('follows a container until it ends', async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('ticker', 'for i in 1 2 3 4 5; do echo tick $i; sleep 0.3; done') });
    await runningPod('ticker');
    const started = Date.now();
    const r = await admin('logs', '-f', 'ticker');
    expect(r).toMatchObject({ code: 0, out: 'tick 1\ntick 2\ntick 3\ntick 4\ntick 5\n' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("refuses bad options and containers with kube-apiserver's messages", async () => {
    expect((await admin('logs', 'talker', '-c', 'nope')).err).toContain('container nope is not valid for pod talker');
    expect((await admin('logs', 'missing')).err).toContain('pods "missing" not found');
    expect((await admin('get', '--raw', '/api/v1/namespaces/default/pods/talker/log?tailLines=-2')).err).toContain('tailLines: Invalid value: -2: must be greater than or equal to 0');
    expect((await admin('logs', 'talker', '--previous')).err).toContain('previous terminated container "main" in pod "talker" not found');
    expect((await admin('get', '--raw', '/api/v1/namespaces/default/pods/talker/log?sinceTime=soon')).err).toContain('parsing time "soon"');
    expect((await admin('get', '--raw', '/api/v1/namespaces/default/pods/talker/log?sinceSeconds=0')).err).toContain('sinceSeconds: Invalid value: 0: must be greater than 0');
  });

  it("serves a launcher Pod's guest-console-log container from the file the launcher writes", async () => {
    const sidecar: V1Container = { name: 'guest-console-log', image: 'kubevirt-ts/virt-launcher:latest', command: ['kv', 'guest-console-log'] };
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('launcher', 'printf "Linux version 6.1\\nlogin: " > "$KV_POD_DIR/guest-console-log.log"; echo launcher up; sleep 60', [sidecar]) });
    const p = await runningPod('launcher');
    expect(p.status?.containerStatuses?.map((s) => [s.name, Boolean(s.state?.running)])).toEqual([['main', true], ['guest-console-log', true]]);
    await waitFor(async () => (await admin('logs', 'launcher', '-c', 'guest-console-log')).out === 'Linux version 6.1\nlogin: ', 10_000, 'console log');
    expect(await admin('logs', 'launcher', '-c', 'main')).toMatchObject({ code: 0, out: 'launcher up\n' });
    const raw = await admin('get', '--raw', '/api/v1/namespaces/default/pods/launcher/log');
    expect(raw.err).toContain('a container name must be specified for pod launcher, choose one of: [main guest-console-log]');
  });

  it('the kubelet API answers nobody without a token the API server accepts', async () => {
    const node = await c.core.readNode({ name: NODE });
    const port = node.status!.daemonEndpoints!.kubeletEndpoint!.Port;
    const noToken = await fetch(`http://127.0.0.1:${port}/containerLogs/default/talker/main`);
    expect(noToken.status).toBe(401);
    const bad = await fetch(`http://127.0.0.1:${port}/containerLogs/default/talker/main`, { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
    const viewer = await fetch(`http://127.0.0.1:${port}/containerLogs/default/talker/main`, { headers: { authorization: `Bearer ${t.srv.viewerToken}` } });
    expect(viewer.status).toBe(403);
    expect(await viewer.text()).toContain('Forbidden (user=viewer, verb=get, resource=nodes, subresource=proxy)');
  });
});
