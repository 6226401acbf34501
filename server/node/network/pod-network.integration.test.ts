import { existsSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import type { V1EnvVar, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubeClients, type KubeClients } from '../../kube/clients';
import { startTestApiServer } from '../../kube/testing/api-server';
import { waitFor } from '../../kube/testing/wait-for';
import { Kubelet } from '../kubelet';
import { podNetworkUnavailableReason } from './pod-network';

const NODE = 'node-231';
const CIDR = '10.244.231.0/24';
const GATEWAY = '10.244.231.1';

function pod(name: string, script: string, env: V1EnvVar[] = []): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName: NODE, restartPolicy: 'Never', containers: [{ name: 'main', image: 'host', command: ['sh', '-c', script], env }] },
  };
}

/** What a TCP server at ip:port says first, or the connection error's code. */
function readGreeting(ip: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host: ip, port, timeout: 3000 });
    let got = '';
    s.on('data', (d) => (got += d.toString()));
    s.on('end', () => resolve(got.trim()));
    s.on('timeout', () => (s.destroy(), resolve('ETIMEDOUT')));
    s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
}

describe.skipIf(podNetworkUnavailableReason() !== undefined)('pod network on a real kubelet (netns, veth, bridge, nftables)', () => {
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  let kubelet: Kubelet;
  let running: Promise<void>;
  const stop = new AbortController();
  let apiPort = 0;
  let hostServer: Server;
  let hostPort = 0;

  beforeAll(async () => {
    api = await startTestApiServer();
    // a host service on every address (as a migration or NBD listener could be): the rules must keep pods out
    hostServer = createServer((sock) => sock.end('host-secret\n'));
    await new Promise<void>((r) => hostServer.listen(0, '0.0.0.0', r));
    hostPort = (hostServer.address() as AddressInfo).port;
    apiPort = Number(new URL(api.kc.getCurrentCluster()!.server).port);
    c = makeKubeClients(api.kc);
    kubelet = new Kubelet({ kc: api.kc, nodeName: NODE, dataDir: api.dataDir, leaseIntervalMs: 500, restartBackoffBaseMs: 50, stopPodsOnExit: true, allowHostCommands: true, podNetwork: true });
    running = kubelet.run(stop.signal);
  });
  afterAll(async () => {
    for (const name of ['web-a', 'web-b', 'probe']) await c?.core.deleteNamespacedPod({ namespace: 'default', name, gracePeriodSeconds: 0 }).catch(() => undefined);
    hostServer?.close();
    stop.abort();
    await running;
    await api?.stop();
    kubelet?.network?.removeNode();
  });

  const podIP = (name: string) =>
    waitFor(async () => {
      const p = await c.core.readNamespacedPod({ namespace: 'default', name }).catch(() => undefined);
      return p?.status?.phase === 'Running' && p.status.podIP !== '127.0.0.1' ? p.status.podIP : undefined;
    }, 15_000, `${name} running with a pod IP`);

  it('records the node pod range and gives two pods distinct addresses the host reaches', async () => {
    const node = await waitFor(() => c.core.readNode({ name: NODE }).catch(() => undefined));
    expect(node.spec?.podCIDR).toBe(CIDR);
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('web-a', 'exec busybox nc -ll -p 8080 -e echo hello-a') });
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('web-b', 'exec busybox nc -ll -p 8080 -e echo hello-b $MY_IP', [{ name: 'MY_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }]) });
    const [a, b] = [await podIP('web-a'), await podIP('web-b')];
    expect(a).toMatch(/^10\.244\.231\.\d+$/);
    expect(b).toMatch(/^10\.244\.231\.\d+$/);
    expect(a).not.toBe(b);
    // both listen on 8080: only separate namespaces make that possible
    expect(await waitFor(async () => ((await readGreeting(a!, 8080)) === 'hello-a' ? 'ok' : undefined), 5000, 'hello-a')).toBe('ok');
    expect(await readGreeting(b!, 8080)).toBe(`hello-b ${b}`); // the downward API's status.podIP is the pod's address
  });

  it('lets a pod reach another pod but no host socket (API server on loopback, a service on every address)', async () => {
    const a = await podIP('web-a');
    const script = [
      `busybox nc -w 2 ${a} 8080 </dev/null | grep -q hello-a || exit 3`,
      `busybox nc -w 2 127.0.0.1 ${apiPort} </dev/null && exit 4`,
      `busybox nc -w 2 ${GATEWAY} ${apiPort} </dev/null && exit 5`,
      `busybox nc -w 2 ${GATEWAY} ${hostPort} </dev/null | grep -q host-secret && exit 6`,
      'exit 0',
    ].join('\n');
    await c.core.createNamespacedPod({ namespace: 'default', body: pod('probe', script) });
    const done = await waitFor(async () => {
      const p = await c.core.readNamespacedPod({ namespace: 'default', name: 'probe' });
      return p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed' ? p : undefined;
    }, 20_000, 'probe finished');
    expect(done.status?.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(0);
    // the host itself still reaches its service on the bridge address (the rules only bind traffic from pods)
    expect(await readGreeting(GATEWAY, hostPort)).toBe('host-secret');
  });

  it('removes the namespace and frees the address when the pod is deleted', async () => {
    const before = await c.core.readNamespacedPod({ namespace: 'default', name: 'web-b' });
    const uid = before.metadata!.uid!;
    await c.core.deleteNamespacedPod({ namespace: 'default', name: 'web-b', gracePeriodSeconds: 0 });
    const ns = `/run/netns/kv-231-${uid.replace(/-/g, '').slice(0, 12)}`;
    await waitFor(() => !existsSync(ns), 10_000, 'netns removed');
    expect(kubelet.network?.ipOf(uid)).toBeUndefined();
  });
});
