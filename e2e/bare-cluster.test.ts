/**
 * `kv up --bare`: the bare Kubernetes kubevirt-ts is installed onto (as onto kind). The real
 * kubectl finds Ready Nodes and no KubeVirt — no CRD, APIService, webhook or virt-* process — and
 * the workload controllers run: a Deployment gets its ReplicaSet and Pods bound to Nodes, a
 * DaemonSet one Pod per Node, a Service selecting the Deployment's Pods its (empty: no Pod IP) Endpoints.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from './harness';
import { makeKubectl, type Kubectl } from './support/kubectl';
import { until } from './support/rest';

let cluster: TestCluster;
let k: Kubectl;
const kubectl = (...args: string[]) => k.run(...args);
const json = async (...args: string[]) => JSON.parse((await kubectl(...args, '-o', 'json')).out);

const WORKLOADS = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: main, image: nginx:1.27, ports: [{containerPort: 80}]}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: default}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: main, image: busybox:1.36}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 80}]
`;

beforeAll(async () => {
  cluster = await startCluster({ bare: true, nodes: 2, console: false });
  k = makeKubectl(cluster.kubeconfig);
}, 180_000);
afterAll(async () => {
  k?.dispose();
  await cluster?.stop();
}, 90_000);

describe('kv up --bare', () => {
  it('says it is bare and prints the kubeconfig; runs no KubeVirt component', () => {
    expect(cluster.output()).toContain(`kubevirt-ts ready: bare cluster (no KubeVirt; install it with kubectl apply -k deploy/cluster) kubeconfig ${cluster.kubeconfig}`);
    const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').filter((l) => l.includes(cluster.dataDir));
    // each process's command, and the components a shared `kv control-plane` process hosts (`control-plane A … --and B …`)
    const commands = new Set(ps.flatMap((l) => {
      const command = /kv\.mjs (\S+)/.exec(l)?.[1] ?? /bundle\S* (\S+)/.exec(l)?.[1];
      if (command !== 'control-plane') return command ? [command] : [];
      return [/control-plane (\S+)/.exec(l)?.[1], ...[...l.matchAll(/--and (\S+)/g)].map((m) => m[1])].filter((c): c is string => !!c);
    }));
    expect(commands.has('apiserver')).toBe(true);
    expect(commands.has('scheduler')).toBe(true);
    for (const kubevirt of ['virt-api', 'controller', 'handler', 'console']) expect(commands.has(kubevirt)).toBe(false);
  });

  it('has Ready Nodes and no KubeVirt CRD, APIService or webhook', async () => {
    const nodes = await json('get', 'nodes');
    expect(nodes.items.map((n: { metadata: { name: string } }) => n.metadata.name).sort()).toEqual(['node-1', 'node-2']);
    expect((await kubectl('get', 'crd')).out).not.toContain('kubevirt.io');
    expect((await kubectl('get', 'apiservices')).out).not.toContain('kubevirt.io');
    expect((await kubectl('get', 'validatingwebhookconfigurations,mutatingwebhookconfigurations')).out).not.toContain('virt');
    expect((await kubectl('api-resources', '--api-group=apps')).out).toMatch(/deployments\s+deploy\s+apps\/v1\s+true\s+Deployment/);
  });

  it('runs the workload controllers: Deployment → ReplicaSet → Pods bound to Nodes, a DaemonSet Pod per Node, Endpoints for the Service', { timeout: 240_000 }, async () => {
    expect((await kubectl('apply', '-f', k.file('workloads.yaml', WORKLOADS))).err).toBe('');
    const web = await until('two bound web pods', async () => {
      const pods = (await json('get', 'pods', '-l', 'app=web')).items;
      return pods.length === 2 && pods.every((p: { spec: { nodeName?: string } }) => p.spec.nodeName) ? pods : undefined;
    });
    expect(web[0].metadata.ownerReferences[0]).toMatchObject({ kind: 'ReplicaSet', controller: true });
    // no container runtime: a foreign image is refused with the kubelet's clear message
    const refused = await until('waiting state', async () => (await json('get', 'pods', '-l', 'app=web')).items[0].status?.containerStatuses?.[0]?.state?.waiting);
    expect(refused.reason).toBe('ErrImagePull');
    const agents = await until('one agent pod per node', async () => {
      const pods = (await json('get', 'pods', '-l', 'app=agent')).items;
      return pods.length === 2 && pods.every((p: { spec: { nodeName?: string } }) => p.spec.nodeName) ? pods : undefined;
    });
    expect(agents.map((p: { spec: { nodeName: string } }) => p.spec.nodeName).sort()).toEqual(['node-1', 'node-2']);
    expect((await kubectl('get', 'deploy', 'web')).out).toMatch(/web\s+0\/2\s+2\s+0\s/);
    // the endpoints controller made the Service's Endpoints; Pods that never got an IP are not in it (as in kube)
    const ep = await until('endpoints of web', async () => (await kubectl('get', 'endpoints', 'web', '-o', 'json')).code === 0 && json('get', 'endpoints', 'web'));
    expect(ep.metadata.labels?.['endpoints.kubernetes.io/managed-by'] ?? ep.metadata.ownerReferences?.[0]?.kind).toBeTruthy();
    expect(ep.subsets ?? []).toEqual([]);
  });
});
