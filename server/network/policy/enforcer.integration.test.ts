import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { NetworkingV1Api, type V1NetworkPolicy, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubeClients, mergePatch, type KubeClients } from '../../kube/clients';
import { startTestApiServer } from '../../kube/testing/api-server';
import { waitFor } from '../../kube/testing/wait-for';
import { log } from '../../log';
import { podNetworkUnavailableReason } from '../../node/network/pod-network';
import { runNetworkPolicyEnforcer } from './enforcer';
import { freeSubnets, NetnsLab, type LabPod } from './testing/netns-lab';

const PORT = 8080;
const ROUNDS = 7;

/** what the host itself gets from ip:port */
function hostDial(ip: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host: ip, port, timeout: 1000 });
    let got = '';
    s.on('data', (d) => (got += d.toString()));
    s.on('end', () => resolve(`ok ${got.trim()}`));
    s.on('timeout', () => (s.destroy(), resolve('ETIMEDOUT')));
    s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe.skipIf(podNetworkUnavailableReason() !== undefined)('NetworkPolicy enforced on real bridges and namespaces', () => {
  const lab = new NetnsLab();
  const namespace = `np-${lab.tag}`;
  const table = `kv-policy-t${lab.tag}`;
  const stop = new AbortController();
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  let net: NetworkingV1Api;
  let enforcing: Promise<void>;
  let a: LabPod;
  let b: LabPod;
  let cc: LabPod;

  async function apiPod(pod: LabPod, labels: Record<string, string>): Promise<void> {
    const body: V1Pod = { metadata: { name: pod.name, namespace, labels }, spec: { containers: [{ name: 'main', image: 'none', ports: [{ name: 'http', containerPort: PORT }] }] } };
    await c.core.createNamespacedPod({ namespace, body });
    await c.core.patchNamespacedPodStatus({ namespace, name: pod.name, body: { status: { phase: 'Running', podIP: pod.ip, podIPs: [{ ip: pod.ip }] } } }, mergePatch);
  }

  const createPolicy = (name: string, spec: V1NetworkPolicy['spec']) => net.createNamespacedNetworkPolicy({ namespace, body: { metadata: { name }, spec } });
  const deletePolicy = (name: string) => net.deleteNamespacedNetworkPolicy({ namespace, name });
  const dial = (from: LabPod, to: LabPod) => lab.dial(from, to.ip, PORT);
  /** dials until the answer satisfies `want`; the ms it took */
  async function until(from: LabPod, to: LabPod, want: (r: string) => boolean, since: number): Promise<number> {
    await waitFor(async () => want(await dial(from, to)), 5000, `${from.name} → ${to.name}`);
    return performance.now() - since;
  }

  beforeAll(async () => {
    const [s1, s2] = freeSubnets(2);
    const br1 = lab.addBridge(s1);
    const br2 = lab.addBridge(s2);
    a = lab.addPod('a', br1, s1, 2);
    b = lab.addPod('b', br1, s1, 3);
    cc = lab.addPod('c', br2, s2, 2);
    await lab.serve(b, PORT);
    api = await startTestApiServer();
    c = makeKubeClients(api.kc);
    net = api.kc.makeApiClient(NetworkingV1Api);
    await c.core.createNamespace({ body: { metadata: { name: namespace, labels: { team: 'lab' } } } });
    await apiPod(a, { role: 'client', name: 'a' });
    await apiPod(b, { app: 'web' });
    await apiPod(cc, { role: 'client', name: 'c' });
    enforcing = runNetworkPolicyEnforcer({ kc: api.kc, signal: stop.signal, log, table });
    await waitFor(() => execFileSync('nft', ['list', 'tables']).toString().includes(table), 5000, 'the policy table');
  }, 30_000);

  afterAll(async () => {
    stop.abort();
    await enforcing;
    await api?.stop();
    lab.destroy();
  });

  it('lets every pod reach B while no policy exists, on the same bridge and across bridges', async () => {
    expect(await dial(a, b)).toBe('ok hi from b');
    expect(await dial(cc, b)).toBe('ok hi from b');
  });

  it('refuses A → B (TCP reset) under a deny-all-ingress policy for B, still lets the host in, and lifts it on delete', async () => {
    const toDeny: number[] = [];
    const toRestore: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let t0 = performance.now();
      await createPolicy('deny-b', { podSelector: { matchLabels: { app: 'web' } }, policyTypes: ['Ingress'] });
      toDeny.push(await until(a, b, (r) => r === 'ECONNREFUSED', t0));
      expect(await dial(cc, b)).toBe('ECONNREFUSED');
      expect(await hostDial(b.ip, PORT)).toBe('ok hi from b');
      t0 = performance.now();
      await deletePolicy('deny-b');
      toRestore.push(await until(a, b, (r) => r.startsWith('ok'), t0));
    }
    const figures = { createToEnforcedMedianMs: Math.round(median(toDeny)), deleteToLiftedMedianMs: Math.round(median(toRestore)), toDenyMs: toDeny.map(Math.round), toRestoreMs: toRestore.map(Math.round) };
    log.info(figures, 'NetworkPolicy enforcement latency');
    expect(median(toDeny)).toBeLessThan(1000);
  }, 60_000);

  it('an allow-from-A policy added to deny-all lets A in again but not C (across bridges)', async () => {
    await createPolicy('deny-b', { podSelector: { matchLabels: { app: 'web' } } });
    await until(a, b, (r) => r === 'ECONNREFUSED', 0);
    await createPolicy('allow-a', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ _from: [{ podSelector: { matchLabels: { name: 'a' } } }], ports: [{ port: 'http' }] }] });
    await until(a, b, (r) => r === 'ok hi from b', 0);
    expect(await dial(cc, b)).toBe('ECONNREFUSED');
    await deletePolicy('allow-a');
    await deletePolicy('deny-b');
    await until(cc, b, (r) => r === 'ok hi from b', 0);
  });

  it('allows by namespace label and ipBlock, and refuses an ipBlock except', async () => {
    await createPolicy('by-ns', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ _from: [{ namespaceSelector: { matchLabels: { team: 'lab' } }, podSelector: { matchLabels: { name: 'c' } } }] }] });
    await until(a, b, (r) => r === 'ECONNREFUSED', 0);
    expect(await dial(cc, b)).toBe('ok hi from b');
    await deletePolicy('by-ns');
    await createPolicy('by-cidr', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ _from: [{ ipBlock: { cidr: '10.244.0.0/16', except: [`${a.ip}/32`] } }] }] });
    await until(a, b, (r) => r === 'ECONNREFUSED', 0);
    expect(await dial(cc, b)).toBe('ok hi from b');
    await deletePolicy('by-cidr');
    await until(a, b, (r) => r.startsWith('ok'), 0);
  });

  it('an egress deny-all on A refuses A → B although B allows everything', async () => {
    await createPolicy('a-no-egress', { podSelector: { matchLabels: { name: 'a' } }, policyTypes: ['Egress'] });
    await until(a, b, (r) => r === 'ECONNREFUSED', 0);
    expect(await dial(cc, b)).toBe('ok hi from b');
    await deletePolicy('a-no-egress');
    await until(a, b, (r) => r.startsWith('ok'), 0);
  });

  it('removes its table when stopped', async () => {
    stop.abort();
    await enforcing;
    expect(execFileSync('nft', ['list', 'tables']).toString()).not.toContain(table);
  });
});
