import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeKubeConfig } from './kubeconfig';
import { shareConnections } from './shared-agent';

describe('shareConnections', () => {
  let server: Server;
  let connections = 0;
  let url = '';
  beforeEach(async () => {
    connections = 0;
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'NamespaceList', apiVersion: 'v1', metadata: {}, items: [] }));
    });
    server.on('connection', () => { connections++; });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it.each([
    ['sequential', 1],
    ['4 concurrent', 4],
  ])('API calls (%s) reuse keep-alive connections', async (_mode, parallel) => {
    const core = makeKubeConfig({ server: url, token: 't' }).makeApiClient(CoreV1Api);
    for (let round = 0; round < 5; round++) await Promise.all(Array.from({ length: parallel }, () => core.listNamespace()));
    expect(connections).toBeLessThanOrEqual(parallel);
  });

  it('KubeConfigs with other tokens for the same server share the connections (the token is per request)', async () => {
    const a = makeKubeConfig({ server: url, token: 'a' }).makeApiClient(CoreV1Api);
    const b = makeKubeConfig({ server: url, token: 'b' }).makeApiClient(CoreV1Api);
    const auth: string[] = [];
    server.on('request', (req) => auth.push(String(req.headers.authorization)));
    for (let i = 0; i < 3; i++) {
      await a.listNamespace();
      await b.listNamespace();
    }
    expect(connections).toBe(1);
    expect(auth).toEqual(['Bearer a', 'Bearer b', 'Bearer a', 'Bearer b', 'Bearer a', 'Bearer b']);
  });

  it('a connection the server closed while idle is replaced, not reused', async () => {
    server.keepAliveTimeout = 50;
    let closed = 0;
    server.on('connection', (sock) => sock.on('close', () => { closed++; }));
    const core = makeKubeConfig({ server: url, token: 't' }).makeApiClient(CoreV1Api);
    await core.listNamespace();
    const end = Date.now() + 2000;
    while (closed < 1 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(1);
    await expect(core.listNamespace()).resolves.toMatchObject({ kind: 'NamespaceList' });
    expect(connections).toBe(2);
  });

  it('is what makes the difference: a plain KubeConfig opens a connection per call', async () => {
    const kc = new KubeConfig();
    kc.loadFromOptions({ clusters: [{ name: 'c', server: url, skipTLSVerify: true }], users: [{ name: 'u', token: 't' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
    const core = kc.makeApiClient(CoreV1Api);
    for (let i = 0; i < 3; i++) await core.listNamespace();
    expect(connections).toBe(3);
    const shared = shareConnections(kc).makeApiClient(CoreV1Api);
    for (let i = 0; i < 3; i++) await shared.listNamespace();
    expect(connections).toBe(4);
  });
});
