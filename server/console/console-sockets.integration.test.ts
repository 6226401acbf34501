/**
 * The browser-facing sockets against a real embedded API server: origin and session checks, one
 * multiplexed watch (list, then events within a bound), and a refused console stream that tells why.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startApiServer, type ApiServer } from '../apiserver/server';
import { makeKubeConfig } from '../kube/kubeconfig';
import { CoreV1Api } from '@kubernetes/client-node';
import { waitFor } from '../kube/testing/wait-for';
import type { WatchMessage } from '../../lib/console/watch-events';
import { registerConsole } from './register';
import { closeConsoleSessions, consoleSessions, SESSION_DB_ENV } from './console-sessions';
import { SESSION_COOKIE } from './session-cookie';
import { setBaseKubeConfig } from './user-client';
import type { UpgradeHandler } from './main';

let api: ApiServer;
let dataDir: string;
let server: Server;
let origin: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kv-console-'));
  api = await startApiServer({ dataDir, port: 0 });
  setBaseKubeConfig(makeKubeConfig({ server: api.url, token: api.adminToken, caPem: api.caPem }));
  delete process.env[SESSION_DB_ENV];
  const routes: { prefix: string; handle: UpgradeHandler }[] = [];
  registerConsole((prefix, handle) => routes.push({ prefix, handle }), dataDir);
  server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => {
    const r = routes.find((x) => req.url?.startsWith(x.prefix));
    if (r) r.handle(req, socket, head); else socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await api?.close();
  closeConsoleSessions();
  rmSync(dataDir, { recursive: true, force: true });
});

const cookieFor = (token: string) => `${SESSION_COOKIE}=${consoleSessions().create(token).id}`;

function open(path: string, headers: Record<string, string>): Promise<{ ws: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(origin.replace('http', 'ws') + path, { headers });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ ws, status: res.statusCode }));
    ws.once('error', () => undefined);
  });
}

describe('/ws/watch', () => {
  it.each([
    ['another origin', { origin: 'http://evil.example' }, 403],
    ['no session', {}, 401],
  ])('refuses %s before upgrading', async (_n, extra, status) => {
    const r = await open('/ws/watch', { origin, cookie: cookieFor(api.adminToken), ...extra, ...(status === 401 ? { cookie: '' } : {}) });
    expect(r.status).toBe(status);
  });

  it('lists, then streams a change within 300 ms, as the signed-in user', async () => {
    const { ws } = await open('/ws/watch', { origin, cookie: cookieFor(api.viewerToken) });
    const got: WatchMessage[] = [];
    ws.on('message', (d) => got.push(...(JSON.parse(String(d)) as WatchMessage[])));
    ws.send(JSON.stringify({ op: 'subscribe', id: 'cm', path: '/api/v1/namespaces/default/configmaps' }));
    await waitFor(() => got.find((m) => m.kind === 'list'), 5000, 'the list');
    const core = makeKubeConfig({ server: api.url, token: api.adminToken, caPem: api.caPem }).makeApiClient(CoreV1Api);
    const t0 = Date.now();
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'probe' }, data: { a: '1' } } });
    await waitFor(() => got.find((m) => m.kind === 'event' && m.event.object.metadata.name === 'probe'), 2000, 'the ADDED event');
    expect(Date.now() - t0).toBeLessThan(300);
    ws.close();
  });

  it('tells the browser when the user may not read a collection', async () => {
    const { ws } = await open('/ws/watch', { origin, cookie: cookieFor('not-a-valid-token') });
    const got: WatchMessage[] = [];
    ws.on('message', (d) => got.push(...(JSON.parse(String(d)) as WatchMessage[])));
    ws.send(JSON.stringify({ op: 'subscribe', id: 'x', path: '/api/v1/namespaces/default/configmaps' }));
    const err = await waitFor(() => got.find((m) => m.kind === 'error'), 5000, 'an error');
    expect(err).toMatchObject({ id: 'x', code: 401 });
    ws.close();
  });
});

describe('/ws/vnc and /ws/console', () => {
  it('refuses another origin with 403', async () => {
    expect((await open('/ws/vnc/default/vm1', { origin: 'http://evil.example', cookie: cookieFor(api.adminToken) })).status).toBe(403);
  });

  it('closes with 4000+status and the server\'s message when the API server refuses the stream', async () => {
    const { ws, status } = await open('/ws/console/default/no-such-vm', { origin, cookie: cookieFor(api.adminToken) });
    expect(status).toBeUndefined();
    const [code, reason] = await new Promise<[number, string]>((r) => ws.once('close', (c, why) => r([c, String(why)])));
    expect(code).toBeGreaterThanOrEqual(4400);
    expect(code).toBeLessThan(4600);
    expect(reason.length).toBeGreaterThan(0);
  });
});
