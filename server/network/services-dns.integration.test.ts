import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiscoveryV1Api, type V1EndpointSlice, type V1Pod, type V1Service } from '@kubernetes/client-node';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubeClients, type KubeClients } from '../kube/clients';
import { startTestApiServer } from '../kube/testing/api-server';
import { waitFor } from '../kube/testing/wait-for';
import { Kubelet } from '../node/kubelet';
import { tryRun } from '../node/network/ip-command';
import { netnsName } from '../node/network/pod-netns';
import { podNetworkUnavailableReason } from '../node/network/pod-network';
import { runClusterDns } from './dns/cluster-dns';
import { runServiceProxy, SERVICE_LINK } from './proxy/service-proxy';
import { SERVICE_NAME_LABEL } from './service-cache';

const NODE = 'node-237';
const NS = 'proxytest';
const CLUSTER_IP = '10.96.7.7';
const NODE_PORT = 30777;
const PROBE = join(__dirname, 'testing', 'tcp-probe.mjs');
/** Figures and diagnostics for the test log (the report quotes the [services] lines). */
const report = (...parts: unknown[]): void => void process.stdout.write(`${parts.map(String).join(' ')}\n`);
const log = pino({ level: process.env.KV_TEST_LOG ?? 'silent' });

function pod(name: string, script: string): V1Pod {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS, labels: { app: name } },
    spec: { nodeName: NODE, restartPolicy: 'Never', containers: [{ name: 'main', image: 'host', command: ['sh', '-c', script] }] },
  };
}

const webService: V1Service = {
  apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: NS },
  spec: { type: 'NodePort', clusterIP: CLUSTER_IP, selector: { app: 'echo-b' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP', nodePort: NODE_PORT }] },
};

function slice(name: string, service: string, ips: string[], port = 8080): V1EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name, namespace: NS, labels: { [SERVICE_NAME_LABEL]: service } },
    addressType: 'IPv4', endpoints: ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } })), ports: [{ name: 'http', port, protocol: 'TCP' }],
  };
}

/** Run a command inside a Pod's network namespace (with its /etc/netns resolv.conf, as the Pod's own processes get). */
function inPod(netns: string, file: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('ip', ['netns', 'exec', netns, file, ...args], { timeout: 60_000 }, (err, stdout) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) || 1 : 0, out: stdout.trim() });
    });
  });
}

/** What an echo server at host:port sends back for "ping", or the connection error's code (from the host). */
function hostEcho(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host, port, timeout: 3000 }, () => s.write('ping\n'));
    s.on('data', (d) => (s.destroy(), resolve(d.toString().trim())));
    s.on('timeout', () => (s.destroy(), resolve('ETIMEDOUT')));
    s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
}

function proxyTable(): Promise<string> {
  return new Promise((resolve) => execFile('nft', ['list', 'table', 'ip', 'kv-proxy'], (_e, stdout) => resolve(stdout)));
}

describe.skipIf(podNetworkUnavailableReason() !== undefined)('Services and DNS on real kernel objects (netns pods, nftables, 10.96.0.10)', () => {
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  let disco: DiscoveryV1Api;
  let kubelet: Kubelet;
  let kubeletRunning: Promise<void>;
  let proxyRunning: Promise<void>;
  let dnsRunning: Promise<void>;
  const stopKubelet = new AbortController();
  const stopNetwork = new AbortController();
  const applied: { ports: number; ms: number; at: number }[] = [];
  let tmp: string;
  let bIP = '';
  let cIP = '';
  let nsA = '';
  // the node's pod range: 10.244.237.0/24 unless another embedded cluster on this host holds it
  let GATEWAY = '';
  let TAG = '';
  let nsB = '';

  const podReady = (name: string) =>
    waitFor(async () => {
      const p = await c.core.readNamespacedPod({ namespace: NS, name }).catch(() => undefined);
      return p?.status?.phase === 'Running' && p.status.podIP?.startsWith('10.244.') ? p : undefined;
    }, 20_000, `${name} running with a pod IP`);

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'kv-svc-'));
    // no upstream resolver: forwarded names must SERVFAIL here, never leave the machine
    writeFileSync(join(tmp, 'resolv.conf'), '# no nameservers\n');
    api = await startTestApiServer();
    c = makeKubeClients(api.kc);
    disco = api.kc.makeApiClient(DiscoveryV1Api);
    await c.core.createNamespace({ body: { metadata: { name: NS } } });
    kubelet = new Kubelet({ kc: api.kc, nodeName: NODE, dataDir: api.dataDir, leaseIntervalMs: 500, restartBackoffBaseMs: 50, stopPodsOnExit: true, allowHostCommands: true, podNetwork: true });
    kubeletRunning = kubelet.run(stopKubelet.signal);
    const cidr = kubelet.network!.podCidr;
    TAG = cidr.split('.')[2]!;
    GATEWAY = cidr.replace(/\.0\/24$/, '.1');
    proxyRunning = runServiceProxy({ kc: api.kc, signal: stopNetwork.signal, log, onApplied: (i) => applied.push({ ...i, at: performance.now() }) });
    dnsRunning = runClusterDns({ kc: api.kc, signal: stopNetwork.signal, log, resolvConf: join(tmp, 'resolv.conf') }).catch((err: unknown) => report('[services] cluster DNS failed:', err));
    const echo = `exec ${process.execPath} -e "require('net').createServer((s) => s.pipe(s)).listen(8080)"`;
    await c.core.createNamespacedPod({ namespace: NS, body: pod('echo-b', echo) });
    await c.core.createNamespacedPod({ namespace: NS, body: pod('client-a', 'exec sleep 600') });
    await c.core.createNamespacedPod({ namespace: NS, body: pod('greet-c', `exec ${process.execPath} -e "require('net').createServer((s) => s.end('from-c')).listen(9090)"`) });
    const [a, b] = [await podReady('client-a'), await podReady('echo-b')];
    cIP = (await podReady('greet-c')).status!.podIP!;
    bIP = b.status!.podIP!;
    nsA = netnsName(TAG, a.metadata!.uid!);
    nsB = netnsName(TAG, b.metadata!.uid!);
    await c.core.createNamespacedService({ namespace: NS, body: webService });
    await disco.createNamespacedEndpointSlice({ namespace: NS, body: slice('web-1', 'web', [bIP]) });
    await waitFor(async () => ((await proxyTable()).includes(`dnat to ${bIP}:8080`) ? true : undefined), 10_000, 'the Service rules in place');
  });

  afterAll(async () => {
    for (const name of ['client-a', 'echo-b', 'greet-c']) await c?.core.deleteNamespacedPod({ namespace: NS, name, gracePeriodSeconds: 0 }).catch(() => undefined);
    stopNetwork.abort();
    await Promise.all([proxyRunning, dnsRunning].map((p) => p?.catch(() => undefined)));
    stopKubelet.abort();
    await kubeletRunning;
    await api?.stop();
    kubelet?.network?.removeNode();
    tryRun('ip', ['link', 'del', SERVICE_LINK]);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('a Pod reaches the ClusterIP; the Service pod reaches itself through it (hairpin)', async () => {
    const viaService = await waitFor(async () => {
      const r = await inPod(nsA, process.execPath, [PROBE, 'echo', CLUSTER_IP, '80']);
      return r.out === 'ping' ? r.out : undefined;
    }, 10_000, 'pod A → ClusterIP echo');
    expect(viaService).toBe('ping');
    expect((await inPod(nsB, process.execPath, [PROBE, 'echo', CLUSTER_IP, '80'])).out).toBe('ping');
  });

  it('spreads connections over the endpoints at random; sessionAffinity ClientIP keeps a client on one', async () => {
    // two Services over B (echo, 8080) and C (greets, 9090): one slice per target port
    for (const [name, ip, sticky] of [['spread', '10.96.7.20', false], ['sticky', '10.96.7.21', true]] as const) {
      await c.core.createNamespacedService({ namespace: NS, body: { metadata: { name }, spec: { clusterIP: ip, ...(sticky ? { sessionAffinity: 'ClientIP' } : {}), ports: [{ name: 'http', port: 80 }] } } });
      await disco.createNamespacedEndpointSlice({ namespace: NS, body: slice(`${name}-b`, name, [bIP]) });
      await disco.createNamespacedEndpointSlice({ namespace: NS, body: slice(`${name}-c`, name, [cIP], 9090) });
    }
    await waitFor(async () => ((await proxyTable()).includes(`dnat to ${cIP}:9090`) && (await proxyTable()).includes('update @affinity-') ? true : undefined), 10_000, 'rules for spread and sticky');
    const answers = async (ip: string) => JSON.parse((await inPod(nsA, process.execPath, [PROBE, 'many', ip, '80', '24'])).out) as string[];
    expect(new Set(await answers('10.96.7.20'))).toEqual(new Set(['ping', 'from-c']));
    expect(new Set(await answers('10.96.7.21')).size).toBe(1);
  });

  it('the host reaches the ClusterIP and the NodePort on 127.0.0.1 and on the bridge gateway', async () => {
    expect(await hostEcho(CLUSTER_IP, 80)).toBe('ping');
    expect(await hostEcho('127.0.0.1', NODE_PORT)).toBe('ping');
    expect(await hostEcho(GATEWAY, NODE_PORT)).toBe('ping');
    // and a Pod reaches the NodePort on its gateway
    expect((await inPod(nsA, process.execPath, [PROBE, 'echo', GATEWAY, String(NODE_PORT)])).out).toBe('ping');
  });

  it('Pods resolve Service names through the cluster DNS (full name, short name, pod name); kube-dns is listed', async () => {
    const full = await waitFor(async () => {
      const r = await inPod(nsA, 'getent', ['hosts', `web.${NS}.svc.cluster.local`]);
      return r.code === 0 ? r.out : undefined;
    }, 10_000, 'getent hosts web').catch(async (err: unknown) => {
      report('[services] pod resolv.conf:', (await inPod(nsA, 'cat', ['/etc/resolv.conf'])).out, '\nnslookup:', (await inPod(nsA, 'busybox', ['nslookup', `web.${NS}.svc.cluster.local`, '10.96.0.10'])).out);
      throw err;
    });
    expect(full.split(/\s+/)[0]).toBe(CLUSTER_IP);
    expect((await inPod(nsA, 'getent', ['hosts', 'web'])).out.split(/\s+/)[0]).toBe(CLUSTER_IP); // search list + ndots
    expect((await inPod(nsA, 'getent', ['hosts', `${bIP.replace(/\./g, '-')}.${NS}.pod.cluster.local`])).out.split(/\s+/)[0]).toBe(bIP);
    expect((await inPod(nsA, 'getent', ['hosts', `nope.${NS}.svc.cluster.local`])).code).not.toBe(0);
    // a name outside the cluster: no upstream here, so SERVFAIL, fast
    const t = performance.now();
    expect((await inPod(nsA, 'getent', ['ahostsv4', 'example.invalid'])).code).not.toBe(0);
    expect(performance.now() - t).toBeLessThan(5000);
    const kubeDns = await waitFor(() => c.core.readNamespacedService({ namespace: 'kube-system', name: 'kube-dns' }).catch(() => undefined), 5000, 'kube-dns Service');
    expect(kubeDns.spec?.clusterIP).toBe('10.96.0.10');
    expect(kubeDns.spec?.ports?.map((p) => `${p.name}/${p.port}/${p.protocol}`)).toEqual(['dns/53/UDP', 'dns-tcp/53/TCP']);
    // the proxy leaves 10.96.0.10 to the DNS server (no DNAT, no reject)
    const stdout = await proxyTable();
    expect(stdout).toContain(`${CLUSTER_IP} . tcp . 80`);
    expect(stdout).not.toContain('10.96.0.10');
  });

  it('measures the DNAT overhead: connect+echo through the ClusterIP vs straight to the pod (median of 200)', async () => {
    type Stats = { median: number; p90: number };
    const bench = async (n: number) => JSON.parse((await inPod(nsA, process.execPath, [PROBE, 'bench', bIP, '8080', CLUSTER_IP, '80', String(n)])).out) as { a: Stats; b: Stats };
    await bench(20); // warm up
    const { a: direct, b: service } = await bench(200);
    report(`[services] connect+echo median (200, alternating): direct ${direct.median.toFixed(3)} ms, via ClusterIP ${service.median.toFixed(3)} ms (p90 ${direct.p90.toFixed(3)} / ${service.p90.toFixed(3)})`);
    expect(service.median).toBeLessThan(direct.median + 5);
  });

  it('replaces the rules for 100 Services in one table write, quickly', async () => {
    const before = applied.length;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 100 }, (_, n) => c.core.createNamespacedService({
      namespace: NS,
      body: { metadata: { name: `many-${n}` }, spec: { type: 'NodePort', clusterIP: `10.96.9.${n + 1}`, ports: [{ name: 'http', port: 80, nodePort: 31000 + n }] } },
    })));
    await Promise.all(Array.from({ length: 100 }, (_, n) => disco.createNamespacedEndpointSlice({ namespace: NS, body: slice(`many-${n}-1`, `many-${n}`, [bIP]) })));
    const created = performance.now() - t0;
    await waitFor(async () => ((await hostEcho('10.96.9.100', 80)) === 'ping' ? true : undefined), 15_000, 'the 100th Service answers');
    const last = applied.at(-1)!;
    report(`[services] 100 Services + 100 EndpointSlices created in ${created.toFixed(0)} ms; ${applied.length - before} table writes; last render+nft -f for ${last.ports} ports: ${last.ms.toFixed(1)} ms`);
    expect(last.ms).toBeLessThan(2000);
    expect(await hostEcho('10.96.9.1', 80)).toBe('ping'); // the echo pod serves 8080 → every many-N reaches it
  });

  it('a Service whose EndpointSlice goes empty refuses connections quickly (no silent drop)', async () => {
    const t0 = performance.now();
    await disco.replaceNamespacedEndpointSlice({ namespace: NS, name: 'web-1', body: slice('web-1', 'web', []) });
    const refused = await waitFor(async () => ((await hostEcho(CLUSTER_IP, 80)) === 'ECONNREFUSED' ? performance.now() - t0 : undefined), 5000, 'ClusterIP refused');
    report(`[services] endpoints emptied → ClusterIP refused after ${refused.toFixed(0)} ms`);
    const t1 = performance.now();
    expect((await inPod(nsA, process.execPath, [PROBE, 'echo', CLUSTER_IP, '80'])).out).toBe('ECONNREFUSED');
    expect(await hostEcho('127.0.0.1', NODE_PORT)).toBe('ECONNREFUSED');
    expect(await hostEcho(GATEWAY, NODE_PORT)).toBe('ECONNREFUSED');
    expect(performance.now() - t1).toBeLessThan(3000);
  });

  it('removes the Pod\'s /etc/netns files with its namespace', async () => {
    expect(existsSync(`/etc/netns/${nsA}/resolv.conf`)).toBe(true);
    await c.core.deleteNamespacedPod({ namespace: NS, name: 'client-a', gracePeriodSeconds: 0 });
    await waitFor(() => !existsSync(`/etc/netns/${nsA}`) && !existsSync(`/run/netns/${nsA}`), 10_000, 'netns and /etc/netns files removed');
  });
});
