import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { VirtualMachineInstance, VMIPhase } from '../../lib/kubevirt';
import { createHandlerServer } from './handler-server';
import { LauncherConnections } from './launcher-connections';
import { createHandlerMetrics } from './metrics';
import { FakeLauncher } from './testing/fake-launcher';

const TOKEN = 'secret-token';
const vmi = (phase: string): VirtualMachineInstance => ({
  metadata: { name: 'demo', namespace: 'default', uid: 'uid-1' },
  spec: { domain: { devices: {} } },
  status: { phase: phase as VMIPhase, nodeName: 'node-1' },
});

let launcher: FakeLauncher;
let base: string;
let phase = 'Running';
const enqueued: string[] = [];
const connections = new LauncherConnections(() => undefined);
let close: () => Promise<void>;

beforeAll(async () => {
  launcher = await new FakeLauncher().start();
  const handler = {
    lookup: (ns: string, name: string) => (ns === 'default' && name === 'demo' ? { vmi: vmi(phase), podDir: launcher.podDir } : undefined),
    enqueue: (k: string) => { enqueued.push(k); },
    connections,
  };
  const metrics = createHandlerMetrics('node-1', {
    running: () => [{ vmi: vmi('Running'), stats: () => connections.get(launcher.podDir, 'default/demo').client.request('stats') }],
  });
  const { server } = createHandlerServer({ handler, token: TOKEN, metrics: () => metrics.scrape() });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = async () => { connections.closeAll(); server.closeAllConnections(); await new Promise((r) => server.close(r)); await launcher.stop(); };
});
afterAll(() => close());

const path = (sub: string, name = 'demo') => `/v1/namespaces/default/virtualmachineinstances/${name}/${sub}`;
const put = (sub: string, token = TOKEN, name = 'demo') =>
  fetch(`http://${base}${path(sub, name)}`, { method: 'PUT', headers: { authorization: `Bearer ${token}` } });

function openStream(sub: string, token = TOKEN): Promise<{ ws: WebSocket; closed: Promise<number> }> {
  const ws = new WebSocket(`ws://${base}${path(sub)}`, { headers: { authorization: `Bearer ${token}` } });
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, closed }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

const nextMessage = (ws: WebSocket) => new Promise<string>((r) => ws.once('message', (d) => r(d.toString())));

describe('console and VNC streams', () => {
  it.each(['console', 'vnc'])('%s carries bytes both ways', async (sub) => {
    const { ws } = await openStream(sub);
    const reply = nextMessage(ws);
    ws.send(Buffer.from('hello\r'));
    expect(await reply).toBe('hello\r');
    ws.close();
  });

  it('a new session replaces the old one with close code 4001', async () => {
    const first = await openStream('console');
    const second = await openStream('console');
    expect(await first.closed).toBe(4001);
    const reply = nextMessage(second.ws);
    second.ws.send('still here');
    expect(await reply).toBe('still here');
    second.ws.close();
  });

  it.each([
    ['wrong token', 'nope', 'HTTP 401'],
  ])('refuses the upgrade with an HTTP status: %s', async (_n, token, msg) => {
    await expect(openStream('console', token)).rejects.toThrow(msg);
  });

  it('refuses a VMI that is not running with 409', async () => {
    phase = 'Scheduled';
    try {
      await expect(openStream('vnc')).rejects.toThrow('HTTP 409');
    } finally {
      phase = 'Running';
    }
  });
});

describe('lifecycle endpoints', () => {
  it('pause and unpause reach the launcher and resync the VMI', async () => {
    expect((await put('pause')).status).toBe(200);
    expect(launcher.domain.state).toBe('paused');
    expect((await put('unpause')).status).toBe(200);
    expect(launcher.domain.state).toBe('running');
    expect(enqueued).toContain('default/demo');
  });

  it.each([
    ['no token', '', 'demo', 401],
    ['unknown VMI', TOKEN, 'other', 404],
  ])('%s → %i as a Kubernetes Status', async (_n, token, name, code) => {
    const res = await put('pause', token, name);
    expect(res.status).toBe(code);
    expect(await res.json()).toMatchObject({ kind: 'Status', code });
  });

  it('guestosinfo without an agent is a conflict', async () => {
    const res = await fetch(`http://${base}${path('guestosinfo')}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(409);
  });
});

describe('/metrics', () => {
  it('exposes KubeVirt metric names with node/namespace/name labels', async () => {
    const text = await (await fetch(`http://${base}/metrics`)).text();
    expect(text).toContain('kubevirt_vmi_cpu_usage_seconds_total{node="node-1",namespace="default",name="demo"} 12.5');
    expect(text).toContain('kubevirt_vmi_memory_domain_bytes{node="node-1",namespace="default",name="demo"} 134217728');
    expect(text).toContain('kubevirt_vmi_memory_resident_bytes{node="node-1",namespace="default",name="demo"} 90000000');
    expect(text).toContain('kubevirt_vmi_network_transmit_bytes_total{node="node-1",namespace="default",name="demo",interface="default"} 200');
    expect(text).toContain('kubevirt_vmi_storage_read_traffic_bytes_total{node="node-1",namespace="default",name="demo",drive="root"} 4096');
    expect(text).toMatch(/# TYPE kubevirt_vmi_cpu_usage_seconds_total counter/);
  });

  it('does not double-count between scrapes', async () => {
    await fetch(`http://${base}/metrics`);
    const text = await (await fetch(`http://${base}/metrics`)).text();
    expect(text).toContain('kubevirt_vmi_cpu_usage_seconds_total{node="node-1",namespace="default",name="demo"} 12.5');
  });
});
