import { createServer as createHttpServer, request, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { createTestPKI } from '../admission/testing/test-pki';
import { defaultServiceResolver, setServiceResolver } from '../admission/service-resolver';
import type { IncomingMessage } from 'node:http';
import type { APIService } from './api-service-target';
import { findAPIService, proxyToAPIService, proxyUpgradeToAPIService } from './index';

const user = { username: 'alice', groups: ['system:authenticated', 'devs'] };
let backend: Server;
let front: HttpServer;
let frontPort: number;
let apiservice: APIService;

const apiService = (extra: NonNullable<APIService['spec']> = {}) => ({
  metadata: { name: 'v1.subresources.kubevirt.io' },
  spec: { group: 'subresources.kubevirt.io', version: 'v1', service: { namespace: 'kubevirt', name: 'virt-api', port: 443 }, ...extra },
});

beforeAll(async () => {
  const pki = createTestPKI(['virt-api.kubevirt.svc']);
  backend = createServer({ cert: pki.certPem, key: pki.keyPem }, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.setHeader('Content-Type', 'application/json');
      res.writeHead(req.url?.includes('/start') ? 202 : 200);
      res.end(JSON.stringify({ method: req.method, url: req.url, body, remoteUser: req.headers['x-remote-user'], remoteGroups: req.headers['x-remote-group'], auth: req.headers.authorization ?? null }));
    });
  });
  const wss = new WebSocketServer({ server: backend, handleProtocols: (protocols) => (protocols.has('plain.kubevirt.io') ? 'plain.kubevirt.io' : false) });
  wss.on('connection', (ws, req) => {
    ws.send(`hello ${req.headers['x-remote-user']}`);
    ws.on('message', (m) => ws.send(`echo:${m}`));
  });
  await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
  const backendPort = (backend.address() as AddressInfo).port;
  setServiceResolver((ns, name, port) => (name === 'virt-api' ? `https://127.0.0.1:${backendPort}` : defaultServiceResolver(ns, name, port)));
  apiservice = apiService({ caBundle: pki.caBundle });

  front = createHttpServer((req, res) => proxyToAPIService(currentService(req), req, res, user));
  front.on('upgrade', (req, socket, head) => proxyUpgradeToAPIService(currentService(req), req, socket, head, user));
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  frontPort = (front.address() as AddressInfo).port;
});

/** Tests pick the APIService through a header so one front server covers every case. */
function currentService(req: IncomingMessage): APIService {
  switch (req.headers['x-test-service']) {
    case 'untrusted': return apiService();
    case 'insecure': return apiService({ insecureSkipTLSVerify: true });
    case 'down': return { ...apiService(), spec: { ...apiService().spec, service: { namespace: 'kubevirt', name: 'gone', port: 1 } } };
    case 'unavailable': return { ...apiservice, status: { conditions: [{ type: 'Available', status: 'False' }] } };
    default: return apiservice;
  }
}

afterAll(async () => {
  setServiceResolver(defaultServiceResolver);
  front.closeAllConnections();
  backend.closeAllConnections();
  await Promise.all([new Promise((r) => front.close(r)), new Promise((r) => backend.close(r))]);
});

function call(path: string, opts: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: frontPort, path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('findAPIService', () => {
  const local = { metadata: { name: 'v1.kubevirt.io' }, spec: { group: 'kubevirt.io', version: 'v1' } };
  it.each([
    ['subresources.kubevirt.io', 'v1', 'v1.subresources.kubevirt.io'],
    ['subresources.kubevirt.io', 'v1alpha3', undefined],
    ['kubevirt.io', 'v1', undefined],
  ])('%s/%s → %s', (group, version, name) => {
    expect(findAPIService([local, apiService()], group, version)?.metadata?.name).toBe(name);
  });
});

describe('proxyToAPIService', () => {
  it('forwards path, method and body with the user as X-Remote-* and no client credentials', async () => {
    const r = await call('/apis/subresources.kubevirt.io/v1/namespaces/default/virtualmachines/vm1/start?dryRun=All', {
      method: 'PUT', body: '{"paused":true}',
      headers: { authorization: 'Bearer secret', 'x-remote-user': 'mallory', 'content-type': 'application/json' },
    });
    expect(r.status).toBe(202);
    expect(r.json).toEqual({
      method: 'PUT', url: '/apis/subresources.kubevirt.io/v1/namespaces/default/virtualmachines/vm1/start?dryRun=All',
      body: '{"paused":true}', remoteUser: 'alice', remoteGroups: 'system:authenticated, devs', auth: null,
    });
  });

  it.each([
    ['the service is down', 'down', /^error trying to reach service: /],
    ['the certificate is not trusted', 'untrusted', /^error trying to reach service: /],
    ['the APIService is not Available', 'unavailable', /^service unavailable$/],
  ])('answers 503 with a Status when %s', async (_n, which, message) => {
    const r = await call('/apis/subresources.kubevirt.io/v1/version', { headers: { 'x-test-service': which } });
    expect(r.status).toBe(503);
    expect(r.json).toMatchObject({ kind: 'Status', code: 503, reason: 'ServiceUnavailable' });
    expect(r.json.message).toMatch(message);
  });

  it('skips verification with insecureSkipTLSVerify', async () => {
    const r = await call('/apis/subresources.kubevirt.io/v1/version', { headers: { 'x-test-service': 'insecure' } });
    expect(r.status).toBe(200);
  });
});

describe('proxyUpgradeToAPIService', () => {
  it('passes a WebSocket through with its subprotocol, both ways', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${frontPort}/apis/subresources.kubevirt.io/v1/namespaces/default/virtualmachineinstances/vm1/console`, ['plain.kubevirt.io']);
    const messages: string[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (m) => {
        messages.push(String(m));
        if (messages.length === 1) ws.send('ping');
        if (messages.length === 2) resolve();
      });
      ws.on('error', reject);
    });
    expect(ws.protocol).toBe('plain.kubevirt.io');
    expect(messages).toEqual(['hello alice', 'echo:ping']);
    ws.close();
  });

  it('refuses the upgrade with a 503 when the service is down', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${frontPort}/apis/subresources.kubevirt.io/v1/x`, { headers: { 'x-test-service': 'down' } });
    const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode!)));
    expect(status).toBe(503);
    ws.on('error', () => undefined); // terminating a refused socket reports "closed before established"
    ws.terminate();
  });
});
