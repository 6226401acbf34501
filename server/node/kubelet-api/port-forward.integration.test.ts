/**
 * `kubectl port-forward` (the real /usr/bin/kubectl) through our API server's pods/portforward to
 * the embedded kubelet, without a pod network (the Pod shares the host's; the kubelet dials
 * 127.0.0.1): kubectl's WebSocket tunnel and its SPDY fallback, Services, a closed port, a viewer.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../apiserver/testing/test-server';
import type { KubeClients } from '../../kube/clients';
import { waitFor } from '../../kube/testing/wait-for';
import { startKubeletHarness, type KubeletHarness } from '../testing/kubelet-harness';
import type { Kubectl } from '../../../e2e/support/kubectl';

const NODE = 'node-pfwd';
const BIG = 1024 * 1024 + 17; // more than one SPDY DATA frame and one WebSocket message
let h: KubeletHarness;
let t: TestServer;
let c: KubeClients;
let admin: Kubectl;
let viewer: Kubectl;
let webPort: number;
let closedPort: number;
let webUid: string;
const started: ChildProcessWithoutNullStreams[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** a Pod whose one container serves HTTP on `port`: "hello from web <path>", or BIG bytes at /big */
function webPod(port: number, closed: number): V1Pod {
  const server = `require('http').createServer((q, s) => { if (q.url === '/big') return s.end(Buffer.alloc(${BIG}, 'abcdefgh')); s.end('hello from web ' + q.url); }).listen(${port}, '127.0.0.1')`;
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: { nodeName: NODE, restartPolicy: 'Never', containers: [{ name: 'main', image: 'host', command: [process.execPath, '-e', server], ports: [{ name: 'http', containerPort: port }, { name: 'idle', containerPort: closed }] }] },
  };
}

/** starts `kubectl port-forward`, resolves with the local port once kubectl prints it */
async function portForward(k: Kubectl, env: Record<string, string>, ...args: string[]): Promise<{ local: number; line: string; p: ChildProcessWithoutNullStreams; err: () => string }> {
  const p = spawn('/usr/bin/kubectl', ['--kubeconfig', k.kubeconfig, 'port-forward', ...args], { env: { ...process.env, HOME: k.home, ...env } });
  started.push(p);
  let out = '';
  let err = '';
  p.stderr.on('data', (d) => { err += d; });
  const line = await new Promise<string>((resolve, reject) => {
    p.stdout.on('data', (d) => {
      out += d;
      const m = /^Forwarding from 127\.0\.0\.1:\d+ -> \d+$/m.exec(out);
      if (m) resolve(m[0]);
    });
    p.on('close', (code) => reject(new Error(`kubectl port-forward ended (${code}): ${err}`)));
  });
  return { local: Number(/:(\d+) ->/.exec(line)![1]), line, p, err: () => err };
}

function get(port: number, path: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  h = await startKubeletHarness(NODE);
  ({ t, c, admin, viewer } = h);
  [webPort, closedPort] = [await freePort(), await freePort()];
  await c.core.createNamespacedPod({ namespace: 'default', body: webPod(webPort, closedPort) });
  const pod = await waitFor(async () => {
    const p = await c.core.readNamespacedPod({ namespace: 'default', name: 'web' }).catch(() => undefined);
    return p?.status?.phase === 'Running' ? p : undefined;
  }, 15_000, 'web Running');
  webUid = pod.metadata!.uid!;
  await waitFor(async () => (await get(webPort, '/').catch(() => undefined))?.status === 200, 10_000, 'web serving');
}, 60_000);

afterAll(async () => {
  for (const p of started) p.kill();
  await h?.close();
});

describe('kubectl port-forward to a Pod', () => {
  // kubectl -v=6 names the upgrade that succeeded: GET for the WebSocket, POST for SPDY
  for (const [transport, env, method] of [['WebSocket tunnel', {}, 'GET'], ['SPDY fallback', { KUBECTL_PORT_FORWARD_WEBSOCKETS: 'false' }, 'POST']] as const) {
    it(`forwards a local port to the Pod's port (${transport}); connections run side by side`, async () => {
      const pf = await portForward(admin, env, 'pod/web', `:${webPort}`, '-v=6');
      expect(pf.err()).toContain(`${method} ${t.srv.url}/api/v1/namespaces/default/pods/web/portforward 101 Switching Protocols`);
      expect(pf.err()).not.toContain('/portforward 4'); // no refused first attempt
      expect(pf.line).toBe(`Forwarding from 127.0.0.1:${pf.local} -> ${webPort}`);
      const first = await get(pf.local, '/hello');
      expect(first).toMatchObject({ status: 200 });
      expect(first.body.toString()).toBe('hello from web /hello');
      const [a, b, big] = await Promise.all([get(pf.local, '/a'), get(pf.local, '/b'), get(pf.local, '/big')]);
      expect([a.body.toString(), b.body.toString()]).toEqual(['hello from web /a', 'hello from web /b']);
      expect(big.body.length).toBe(BIG);
      expect(sha(big.body)).toBe(sha(Buffer.alloc(BIG, 'abcdefgh')));
      expect(pf.err()).not.toMatch(/^E\d{4} /m); // kubectl logged no error
      pf.p.kill();
    });
  }

  it('kubectl port-forward svc/NAME reaches the Pod behind the Service (its targetPort)', async () => {
    await c.core.createNamespacedService({ namespace: 'default', body: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http' }] } } });
    const pf = await portForward(admin, {}, 'svc/web', ':80');
    expect(pf.line).toBe(`Forwarding from 127.0.0.1:${pf.local} -> ${webPort}`);
    expect((await get(pf.local, '/via-service')).body.toString()).toBe('hello from web /via-service');
    pf.p.kill();
  });

  it("a port nobody listens on: kubectl prints kube's error for that connection and keeps forwarding", async () => {
    const pf = await portForward(admin, {}, 'pod/web', `:${closedPort}`);
    await expect(get(pf.local, '/')).rejects.toThrow();
    await waitFor(async () => pf.err().includes(`an error occurred forwarding ${pf.local} -> ${closedPort}`), 10_000, 'kubectl reports the error');
    expect(pf.err()).toContain(`error forwarding port ${closedPort} to pod ${webUid}, uid : failed to connect to localhost:${closedPort} inside namespace \\"host\\", IPv4: dial tcp4 127.0.0.1:${closedPort}: connect: connection refused`);
    pf.p.kill();
  });

  it('a Pod sharing the node\'s network is forwarded only the ports it declares, never another host port', async () => {
    const undeclared = await freePort();
    const host = createServer((sock) => sock.end('the host, not the Pod')).listen(undeclared, '127.0.0.1');
    try {
      const pf = await portForward(admin, {}, 'pod/web', `:${undeclared}`);
      await expect(get(pf.local, '/')).rejects.toThrow();
      await waitFor(async () => pf.err().includes(`port ${undeclared} is not a port the Pod declares`), 10_000, 'kubectl reports the refusal');
      pf.p.kill();
    } finally {
      host.close();
    }
  });

  it('a viewer may not forward ports (create on pods/portforward)', async () => {
    const r = await viewer.run('port-forward', 'pod/web', `:${webPort}`);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('pods "web" is forbidden: User "viewer" cannot create resource "pods/portforward" in API group "" in the namespace "default"');
  });

  it("answers a missing Pod with 404, a Pod without a node and a request without an upgrade with kube-apiserver's 400, an ended Pod with the kubelet's", async () => {
    await c.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'nowhere' }, spec: { containers: [{ name: 'main', image: 'host' }] } } });
    const upgrade = (name: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${t.srv.url}/api/v1/namespaces/default/pods/${name}/portforward`);
      const req = httpsRequest({
        host: url.hostname, port: url.port, path: url.pathname, method: 'POST', ca: t.srv.caPem,
        headers: { authorization: `Bearer ${t.srv.adminToken}`, connection: 'Upgrade', upgrade: 'SPDY/3.1', 'x-stream-protocol-version': 'portforward.k8s.io' },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d) => { body += d; });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('upgrade', (res, socket) => { socket.destroy(); resolve({ status: res.statusCode ?? 0, body: '' }); });
      req.on('error', reject);
      req.end();
    });
    expect(await upgrade('missing')).toMatchObject({ status: 404, body: expect.stringContaining('pods \\"missing\\" not found') });
    expect(await upgrade('nowhere')).toMatchObject({ status: 400, body: expect.stringContaining('pod nowhere does not have a host assigned') });
    expect((await upgrade('web')).status).toBe(101);
    // a Pod whose container ended: the kubelet's refusal comes back through the API server
    await c.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'done' }, spec: { nodeName: NODE, restartPolicy: 'Never', containers: [{ name: 'main', image: 'host', command: ['true'] }] } } });
    await waitFor(async () => (await c.core.readNamespacedPod({ namespace: 'default', name: 'done' })).status?.phase === 'Succeeded', 15_000, 'done Succeeded');
    expect(await upgrade('done')).toMatchObject({ status: 400, body: expect.stringContaining('pod done is not running') });
    // without an upgrade: kube-apiserver's 400; discovery lists the subresource as kube's does
    const plain = await admin.run('create', '--raw', '/api/v1/namespaces/default/pods/web/portforward', '-f', admin.file('empty.json', '{}'));
    expect(plain.err).toContain('Upgrade request required');
    const v1 = JSON.parse((await admin.run('get', '--raw', '/api/v1')).out) as { resources: { name: string; kind: string; verbs: string[] }[] };
    expect(v1.resources.find((r) => r.name === 'pods/portforward')).toMatchObject({ kind: 'PodPortForwardOptions', verbs: ['create', 'get'] });
  });
});
