/**
 * VMIs on `kv up` with the pod network (on by default): real kubelets, namespaces and QEMU demo guests.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../../../e2e/harness';
import { makeKubeClients, type KubeClients } from '../../kube/clients';
import { makeKubeConfig } from '../../kube/kubeconfig';
import type { VirtualMachineInstance } from '../../../lib/kubevirt/vmi-types';
import { podNetworkUnavailableReason } from './pod-network';

const NS = 'default';
let cluster: TestCluster;
let k: KubeClients;
let apiPort = 0;

/** The guest checks whether it reaches the host's API server, then serves the answer on port 80. */
const userData = (name: string, port: number) => `#!/bin/sh
R=blocked
for h in 10.0.2.1 10.244.1.1 10.244.2.1; do busybox nc -w 2 $h ${port} </dev/null && R="reached-$h"; done
busybox nc -ll -p 80 -e echo "hello ${name} api:$R" &
`;

const vmiSpec = (name: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: NS },
  spec: {
    terminationGracePeriodSeconds: 0,
    domain: { memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }, { name: 'ci', disk: { bus: 'virtio' } }], interfaces: [{ name: 'default', masquerade: {}, ports: [{ name: 'http', port: 80 }] }] } },
    networks: [{ name: 'default', pod: {} }],
    volumes: [{ name: 'root', containerDisk: { image: 'demo' } }, { name: 'ci', cloudInitNoCloud: { userData: userData(name, apiPort) } }],
  },
});

function greeting(ip: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host: ip, port, timeout: 3000 });
    let got = '';
    s.on('data', (d) => (got += d.toString()));
    s.on('end', () => resolve(got.trim()));
    s.on('timeout', () => (s.destroy(), resolve('ETIMEDOUT')));
    s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
}

async function until<T>(what: string | (() => string), fn: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.skipIf(podNetworkUnavailableReason() !== undefined)('VMIs on the pod network', () => {
  beforeAll(async () => {
    delete process.env.KV_POD_NETWORK; // the default
    cluster = await startCluster({ nodes: 2, console: false });
    apiPort = Number(new URL(cluster.access.server).port);
    k = makeKubeClients(makeKubeConfig({ server: cluster.access.server, token: cluster.access.token, caPem: cluster.access.ca }));
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 90_000);

  it('gives two guests distinct Pod IPs, serves a guest port on its Pod IP, and keeps the host API out of reach', async () => {
    for (const name of ['vm-a', 'vm-b']) await k.vmis.create(NS, vmiSpec(name));
    let last = '';
    const ipOf = (name: string) =>
      until(() => `${name} interface IP (last: ${last})`, async () => {
        const v = (await k.vmis.get(NS, name).catch(() => undefined)) as unknown as VirtualMachineInstance | undefined;
        last = JSON.stringify({ phase: v?.status?.phase, interfaces: v?.status?.interfaces, conditions: v?.status?.conditions?.map((c) => c.message ?? c.type) });
        const ip = v?.status?.interfaces?.[0]?.ipAddress;
        return v?.status?.phase === 'Running' && ip?.startsWith('10.244.') && ip;
      }, 60_000);
    const [a, b] = [await ipOf('vm-a'), await ipOf('vm-b')];
    expect(a).not.toBe(b);
    const answer = (ip: string) => until(`guest port 80 on ${ip}`, async () => {
      const g = await greeting(ip, 80);
      return g.startsWith('hello') && g;
    }, 120_000);
    // the guest tried the host's API server at 10.0.2.1 (QEMU's gateway) and at both node bridges
    expect(await answer(a)).toBe('hello vm-a api:blocked');
    expect(await answer(b)).toBe('hello vm-b api:blocked');
  }, 300_000);
});
