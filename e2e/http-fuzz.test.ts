/**
 * Every listener of a `kv up` cluster under hostile HTTP: fast-check draws malformed requests
 * (e2e/support/http-fuzz-requests.ts) and sends them, 16 at a time, to the API server, virt-api,
 * the console, the upload proxy and each node's virt-handler and kubelet API, without a token and
 * with the viewer's, the admin's and a garbage one. No answer may be 5xx, no request may hang,
 * every /healthz answers within 1 s throughout, and every component is still the same process
 * afterwards. Prints requests/s and the count per status. HTTP_FUZZ_COUNT (default 100,000) and
 * HTTP_FUZZ_SEED override.
 */
import type { V1Endpoints, V1NodeList } from '@kubernetes/client-node';
import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiGet } from '../server/up/readiness';
import { findProcesses } from '../server/virt-handler/testing/stack-helpers';
import { startCluster, type TestCluster } from './harness';
import { sampleFuzzRequests, type FramedRequest, type Identity, type RawRequest } from './support/http-fuzz-requests';
import { Annotation } from '../lib/kubevirt/labels';

const COUNT = Number(process.env.HTTP_FUZZ_COUNT ?? 100_000);
const SEED = Number(process.env.HTTP_FUZZ_SEED ?? 20261124);
const CONCURRENCY = 16;
const REQUEST_DEADLINE_MS = 15_000;

interface Listener { name: string; url: URL; agent: HttpAgent }
let cluster: TestCluster;
let listeners: Listener[] = [];
let tokens: Record<Identity, string | undefined>;

async function discoverListeners(): Promise<Listener[]> {
  const tls = (u: string) => ({ url: new URL(u), agent: new HttpsAgent({ keepAlive: true, maxSockets: CONCURRENCY, rejectUnauthorized: false }) });
  const plain = (u: string) => ({ url: new URL(u), agent: new HttpAgent({ keepAlive: true, maxSockets: CONCURRENCY }) });
  const out: Listener[] = [{ name: 'apiserver', ...tls(cluster.access.server) }];
  const ep = (await apiGet<V1Endpoints>(cluster.access, '/api/v1/namespaces/kubevirt/endpoints/virt-api')).body;
  const addr = ep?.subsets?.[0];
  if (addr) out.push({ name: 'virt-api', ...tls(`https://${addr.addresses![0].ip}:${addr.ports![0].port}`) });
  if (cluster.consoleUrl) out.push({ name: 'console', ...plain(cluster.consoleUrl) });
  const upload = (await apiGet<V1Endpoints>(cluster.access, '/api/v1/namespaces/kubevirt/endpoints/cdi-uploadproxy')).body?.subsets?.[0];
  if (upload) out.push({ name: 'uploadproxy', ...plain(`http://${upload.addresses![0].ip}:${upload.ports![0].port}`) });
  for (const node of (await apiGet<V1NodeList>(cluster.access, '/api/v1/nodes')).body!.items) {
    const url = node.metadata!.annotations?.[Annotation.HandlerEndpoint];
    if (url) out.push({ name: `${node.metadata!.name}-handler`, ...(url.startsWith('https') ? tls(url) : plain(url)) });
    const kubeletPort = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
    const ip = node.status?.addresses?.find((a: { type: string }) => a.type === 'InternalIP')?.address;
    if (kubeletPort && ip) out.push({ name: `${node.metadata!.name}-kubelet`, ...plain(`http://${ip}:${kubeletPort}`) });
  }
  return out;
}

type Outcome = number | 'upgrade' | 'closed' | 'hang';

function sendFramed(l: Listener, r: FramedRequest): Promise<Outcome> {
  return new Promise((resolve) => {
    const token = tokens[r.identity];
    const headers = { ...r.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const send = l.url.protocol === 'https:' ? httpsRequest : httpRequest;
    let done = false;
    const finish = (o: Outcome) => { if (!done) { done = true; clearTimeout(timer); resolve(o); } };
    const timer = setTimeout(() => { finish('hang'); req.destroy(); }, REQUEST_DEADLINE_MS);
    const req = send({ host: l.url.hostname, port: l.url.port, method: r.method, path: r.path, headers, agent: l.agent, rejectUnauthorized: false }, (res: IncomingMessage) => {
      finish(res.statusCode ?? 0);
      if (/watch=true/.test(r.path) || res.headers['content-type']?.includes('event-stream')) res.destroy();
      else res.resume();
    });
    req.on('upgrade', (_res, socket: Socket) => { socket.destroy(); finish('upgrade'); });
    req.on('error', () => finish('closed'));
    req.end(r.body);
  });
}

function sendRaw(l: Listener, r: RawRequest): Promise<Outcome> {
  return new Promise((resolve) => {
    const opts = { host: l.url.hostname, port: Number(l.url.port) };
    const s = l.url.protocol === 'https:' ? tlsConnect({ ...opts, rejectUnauthorized: false }) : netConnect(opts);
    let head = '';
    let idle: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => { s.destroy(); resolve('hang'); }, REQUEST_DEADLINE_MS);
    s.on(l.url.protocol === 'https:' ? 'secureConnect' : 'connect', () => s.write(r.bytes));
    s.on('data', (d: Buffer) => {
      if (head.length < 64) head += d.toString('latin1');
      // answered: a server that keeps the connection open (keep-alive) is left after 100 ms of quiet,
      // not after its idle timeout; whatever it does with the rest of the bytes still counts (pids, /healthz)
      clearTimeout(idle);
      idle = setTimeout(() => s.destroy(), 100);
    });
    s.on('close', () => { clearTimeout(timer); clearTimeout(idle); const m = /^HTTP\/1\.[01] (\d{3})/.exec(head); resolve(m ? Number(m[1]) : 'closed'); });
    s.on('error', () => { /* close follows */ });
  });
}

beforeAll(async () => {
  cluster = await startCluster({ nodes: 2, console: true });
  listeners = await discoverListeners();
  const file = JSON.parse(readFileSync(`${cluster.dataDir}/apiserver/tokens.json`, 'utf8')) as { tokens: { username: string; token: string }[] };
  tokens = { none: undefined, garbage: 'not-a-token', admin: cluster.access.token, viewer: file.tokens.find((t) => t.username === 'viewer')?.token };
}, 240_000);
afterAll(async () => {
  for (const l of listeners) l.agent.destroy();
  await cluster?.stop();
});

/** samples every listener's /healthz every 500 ms; returns the slow or failed probes */
function sampleHealth(signal: AbortSignal): Promise<string[]> {
  const failures: string[] = [];
  const probe = (l: Listener) => new Promise<void>((resolve) => {
    const started = Date.now();
    const send = l.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send({ host: l.url.hostname, port: l.url.port, path: '/healthz', rejectUnauthorized: false, timeout: 1000, agent: false }, (res) => {
      res.resume();
      if (res.statusCode !== 200) failures.push(`${l.name} /healthz ${res.statusCode}`);
      resolve();
    });
    req.on('timeout', () => { failures.push(`${l.name} /healthz no answer within 1 s`); req.destroy(); });
    req.on('error', () => { if (Date.now() - started < 1000) failures.push(`${l.name} /healthz refused`); resolve(); });
    req.end();
  });
  return (async () => {
    while (!signal.aborted) {
      await Promise.all(listeners.map(probe));
      await new Promise((r) => setTimeout(r, 500));
    }
    return failures;
  })();
}

const componentPids = () => ['apiserver', 'console', 'handler', 'controller', 'scheduler', 'node', 'storage'].map((c) => `${c}:${findProcesses([c, '--data-dir', cluster.dataDir]).sort().join(',')}`);

it.skipIf(!!process.env.KV_E2E_KUBECONFIG)(`${COUNT} malformed requests across every listener: 0 process exits, 0 hangs, 0 × 5xx`, async () => {
  expect(listeners.map((l) => l.name)).toEqual(expect.arrayContaining(['apiserver', 'virt-api', 'console', 'uploadproxy', 'node-1-handler', 'node-2-handler', 'node-1-kubelet', 'node-2-kubelet']));
  const requests = sampleFuzzRequests(COUNT, SEED);
  const pidsBefore = componentPids();
  const stopHealth = new AbortController();
  const health = sampleHealth(stopHealth.signal);
  const byStatus = new Map<string, number>();
  const msByListener = new Map<string, number>();
  const bad: string[] = [];
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < requests.length) {
      const i = next++;
      const r = requests[i];
      const l = listeners[i % listeners.length];
      const t0 = Date.now();
      const outcome = r.kind === 'raw' ? await sendRaw(l, r) : await sendFramed(l, r);
      msByListener.set(l.name, (msByListener.get(l.name) ?? 0) + Date.now() - t0);
      const key = `${l.name} ${outcome}`;
      byStatus.set(String(outcome), (byStatus.get(String(outcome)) ?? 0) + 1);
      if (outcome === 'hang' || (typeof outcome === 'number' && outcome >= 500)) {
        if (bad.length < 30) bad.push(`${key}: ${r.kind === 'raw' ? JSON.stringify(r.bytes.toString('latin1').slice(0, 120)) : `${r.method} ${r.path} ${JSON.stringify(r.headers)} body=${JSON.stringify(r.body?.toString('latin1').slice(0, 80))}`}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (Date.now() - started) / 1000;
  stopHealth.abort();
  const healthFailures = await health;
  process.stdout.write(`http fuzz: ${COUNT} requests over ${listeners.length} listeners in ${seconds.toFixed(1)} s (${Math.round(COUNT / seconds)}/s); by status ${JSON.stringify(Object.fromEntries([...byStatus].sort()))}; mean ms per request by listener ${JSON.stringify(Object.fromEntries([...msByListener].map(([k, v]) => [k, +(v / (COUNT / listeners.length)).toFixed(1)])))}\n`);
  expect(bad).toEqual([]);
  expect(healthFailures).toEqual([]);
  expect(componentPids()).toEqual(pidsBefore);
}, 900_000);
