/**
 * The pod network as a KubeVirt user meets it, on a two-node `kv up` with real guests: VM a on
 * node-1 reaches VM b on node-2 by pod IP and by its Service's DNS name; the host reaches b through
 * its NodePort; a NetworkPolicy isolating b blocks a and deleting it lets a in again; no control-plane
 * port of the host answers a guest; after b live-migrates its Service finds it again (the gap is
 * printed).
 */
import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGuestShell, type GuestShell } from './support/guest-shell';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callRest, until } from './support/rest';
import { podNetworkUnavailableReason } from '../server/node/network/pod-network';

const NS = 'default';
const BOOT_MS = 150_000;
let c: LifecycleCluster;
let shellA: GuestShell;
let ipB = '';
let nodePort = 0;
let clusterIP = '';

const server = (name: string) => `#!/bin/sh\nbusybox nc -ll -p 8080 -e echo hello-${name} &\n`;

const vm = (name: string, node?: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name, namespace: NS },
  spec: {
    runStrategy: 'Always',
    template: {
      metadata: { labels: { app: name } },
      spec: {
        terminationGracePeriodSeconds: 0,
        ...(node ? { nodeSelector: { 'kubernetes.io/hostname': node } } : {}),
        domain: {
          memory: { guest: '128Mi' },
          devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }, { name: 'ci', disk: { bus: 'virtio' } }], interfaces: [{ name: 'default', masquerade: {}, ports: [{ name: 'http', port: 8080 }] }] },
        },
        networks: [{ name: 'default', pod: {} }],
        volumes: [{ name: 'root', containerDisk: { image: 'demo' } }, { name: 'ci', cloudInitNoCloud: { userData: server(name) } }],
      },
    },
  },
});

/** one line from host:port, '' when refused or silent */
function greeting(host: string, port: number, timeoutMs = 2000): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host, port, timeout: timeoutMs });
    let got = '';
    s.on('data', (d) => (got += d.toString()));
    s.on('end', () => resolve(got.trim()));
    s.on('close', () => resolve(got.trim()));
    s.on('timeout', () => { s.destroy(); resolve(''); });
    s.on('error', () => resolve(''));
  });
}

const vmiOf = async (name: string) => (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/${name}`)).body;
const fromA = (cmd: string, ms = 30_000) => shellA.run(cmd, ms);

/** The TCP ports the host listens on (every component of this cluster among them). */
function hostListeningPorts(): number[] {
  const out = execFileSync('ss', ['-ltnH'], { encoding: 'utf8' });
  const ports = out.split('\n').map((l) => Number(/:(\d+)\s/.exec(l.split(/\s+/)[3] + ' ')?.[1])).filter((p) => Number.isInteger(p) && p > 0);
  return [...new Set(ports)].sort((a, b) => a - b);
}

describe.skipIf(podNetworkUnavailableReason() !== undefined)('networking on the pod network', () => {
  beforeAll(async () => {
    c = await startLifecycleCluster({ nodes: 2 });
    // a is pinned to node-1; b is free to move, and the scheduler's least-allocated score puts it on node-2
    const created = await callRest(c.admin, 'POST', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines`, vm('a', 'node-1'));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await until('a scheduled', async () => (await vmiOf('a'))?.status?.nodeName, BOOT_MS);
    const res = await callRest(c.admin, 'POST', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines`, vm('b'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const svc = await callRest(c.admin, 'POST', `/api/v1/namespaces/${NS}/services`, {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'b-svc' }, spec: { type: 'NodePort', selector: { app: 'b' }, ports: [{ port: 80, targetPort: 8080 }] },
    });
    expect(svc.status, JSON.stringify(svc.body)).toBe(201);
    nodePort = svc.body.spec.ports[0].nodePort;
    clusterIP = svc.body.spec.clusterIP;
    const b = await until('b Running with a pod IP', async () => { const v = await vmiOf('b'); return v?.status?.phase === 'Running' && v.status.interfaces?.[0]?.ipAddress && v; }, BOOT_MS);
    ipB = b.status.interfaces[0].ipAddress;
    await until('a Running', async () => (await vmiOf('a'))?.status?.phase === 'Running', BOOT_MS);
    shellA = await openGuestShell(c.admin, NS, 'a');
  }, 420_000);
  afterAll(async () => {
    shellA?.close();
    await c?.stop();
  });

  it('b has its own pod address on the other node, and a reaches it across nodes', async () => {
    expect(ipB).toMatch(/^10\.244\.\d+\.\d+$/);
    expect((await vmiOf('b')).status.nodeName).toBe('node-2');
    const node2 = (await callRest(c.admin, 'GET', '/api/v1/nodes/node-2')).body;
    expect(node2.status.conditions.find((x: { type: string }) => x.type === 'NetworkUnavailable')).toMatchObject({ status: 'False' });
    const out = await until('a → b by pod IP', async () => (await fromA(`busybox nc -w 3 ${ipB} 8080 </dev/null`)).includes('hello-b') || undefined, 60_000);
    expect(out).toBe(true);
    // both guests' QEMU dropped root on their taps (server/virt-launcher/qemu-net-devices.ts): no QEMURunsAsRoot
    for (const name of ['a', 'b']) expect((await vmiOf(name)).status.conditions?.find((x: { type: string }) => x.type === 'QEMURunsAsRoot'), name).toBeUndefined();
  });

  it('a reaches b by its Service DNS name; the host reaches b by NodePort and ClusterIP', async () => {
    await until('Service endpoints ready', async () => (await greeting(clusterIP, 80)) === 'hello-b', 60_000);
    expect(await greeting('127.0.0.1', nodePort)).toBe('hello-b');
    const byName = await fromA(`busybox nc -w 3 b-svc.${NS}.svc.cluster.local 80 </dev/null`);
    expect(byName).toContain('hello-b');
  });

  it('a NetworkPolicy isolating b keeps a out; deleting it lets a in again', async () => {
    const np = await callRest(c.admin, 'POST', `/apis/networking.k8s.io/v1/namespaces/${NS}/networkpolicies`, {
      apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'isolate-b' }, spec: { podSelector: { matchLabels: { app: 'b' } }, policyTypes: ['Ingress'] },
    });
    expect(np.status, JSON.stringify(np.body)).toBe(201);
    await until('a blocked', async () => !(await fromA(`busybox nc -w 2 ${ipB} 8080 </dev/null`)).includes('hello-b'), 30_000);
    expect(await greeting(ipB, 8080)).toBe('hello-b'); // the node itself always reaches its Pods
    expect((await callRest(c.admin, 'DELETE', `/apis/networking.k8s.io/v1/namespaces/${NS}/networkpolicies/isolate-b`)).status).toBe(200);
    await until('a allowed again', async () => (await fromA(`busybox nc -w 3 ${ipB} 8080 </dev/null`)).includes('hello-b'), 30_000);
  });

  it('no port the host listens on answers a guest (API server, virt-api, handlers, console, migration, NBD)', async () => {
    const ports = hostListeningPorts();
    const nodes = (await callRest(c.admin, 'GET', '/api/v1/nodes')).body.items as { spec: { podCIDR: string } }[];
    const gateways = nodes.map((n) => n.spec.podCIDR.replace(/0\/24$/, '1'));
    const apiPort = Number(new URL(c.cluster.access.server).port);
    expect(ports).toContain(apiPort);
    const targets = ['10.0.2.1', ...gateways].flatMap((h) => ports.map((p) => `${h}:${p}`));
    const script = `for t in ${targets.join(' ')}; do (busybox nc -w 2 \${t%:*} \${t#*:} </dev/null >/dev/null 2>&1 && echo OPEN-$t) & done; wait`;
    const open = (await fromA(script, 120_000)).split('\n').filter((l) => l.startsWith('OPEN-'));
    process.stderr.write(`scanned ${targets.length} host address:port pairs from guest a: ${open.length} open\n`);
    expect(open).toEqual([]);
  });

  it('after b live-migrates its Service routes to it again (prints the gap)', async () => {
    const before = (await vmiOf('b')).status.nodeName;
    let longestGap = 0;
    let failingSince: number | undefined;
    let done = false;
    const probe = (async () => {
      while (!done) {
        const t = Date.now();
        const ok = (await greeting(clusterIP, 80, 500)) === 'hello-b';
        if (!ok && failingSince === undefined) failingSince = t;
        if (ok && failingSince !== undefined) { longestGap = Math.max(longestGap, Date.now() - failingSince); failingSince = undefined; }
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const m = await callRest(c.admin, 'POST', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstancemigrations`, {
      apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceMigration', metadata: { generateName: 'mig-b-' }, spec: { vmiName: 'b' },
    });
    expect(m.status, JSON.stringify(m.body)).toBe(201);
    const name = m.body.metadata.name;
    const final = await until('migration final', async () => {
      const got = (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstancemigrations/${name}`)).body;
      return ['Succeeded', 'Failed'].includes(got?.status?.phase) && got;
    }, 120_000);
    expect(final.status.phase).toBe('Succeeded');
    await until('b answers through its Service again', async () => (await greeting(clusterIP, 80)) === 'hello-b' && failingSince === undefined, 30_000);
    done = true;
    await probe;
    const after = await vmiOf('b');
    expect(after.status.nodeName).not.toBe(before);
    process.stderr.write(`service gap during b's live migration: ${longestGap} ms\n`);
    expect(longestGap).toBeLessThan(5_000);
  });
});
