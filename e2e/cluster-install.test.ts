/**
 * Issue 16: kubevirt-ts installed with kubectl onto `kv up --bare`, as a user installs KubeVirt onto
 * kind — the exact commands of docs/cluster-mode.md ("Install onto kv up --bare"). The components
 * run from the manifests alone (in-cluster config through the `kubernetes` Service, Pod-bound
 * tokens, the downward API); the admission webhooks and the subresources APIService answer through
 * the virt-api Service; a demo VM runs, answers on its serial console through the installed virt-api,
 * live-migrates to the other node and stops; a verb taken from virt-handler's ClusterRole breaks
 * exactly the status write that needs it; `kubectl delete -k` leaves no object, Pod or process.
 *
 * Needs the pod network (each Pod its own netns; without it every Pod shares the host's ports, and
 * virt-api, virt-controller and the two virt-handlers collide as hostNetwork Pods on one host would).
 * The pod network is host-wide (nftables, DNS address): run it when no other `kv up` runs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from './harness';
import { makeKubectl, type Kubectl } from './support/kubectl';
import { until, type Endpoint } from './support/rest';
import { openGuestShell } from './support/guest-shell';
import { buildDemoImage, installFromDeploy, NODE_DIR, ROOT } from './support/install-deploy';

let cluster: TestCluster;
let k: Kubectl;
/** when the install began (the install test sets it), for the install → VM Running figure */
let installStarted = 0;
/** the API server as the guest shell reaches it: the console goes through the aggregated API to virt-api's Pod */
const apiEndpoint = (): Endpoint => ({ url: cluster.access.server, ca: cluster.access.ca, token: cluster.access.token });
const kubectl = (...args: string[]) => k.run(...args);
async function ok(...args: string[]): Promise<string> {
  const r = await kubectl(...args);
  expect(r.code, `kubectl ${args.join(' ')}: ${r.err}`).toBe(0);
  return r.out;
}
const json = async (...args: string[]) => JSON.parse(await ok(...args, '-o', 'json'));
/** takes one verb off one rule of a ClusterRole (re-apply its deploy/cluster file to restore it) */
async function dropVerb(role: string, resource: string, verb: string): Promise<void> {
  const rules = (await json('get', 'clusterrole', role)).rules as { resources: string[]; verbs: string[] }[];
  const i = rules.findIndex((r) => r.resources.includes(resource) && r.verbs.includes(verb));
  expect(i, `${role} grants ${verb} on ${resource}`).toBeGreaterThanOrEqual(0);
  await ok('patch', 'clusterrole', role, '--type=json', '-p', JSON.stringify([{ op: 'replace', path: `/rules/${i}/verbs`, value: rules[i].verbs.filter((v) => v !== verb) }]));
}
/** the API server's log lines for requests RBAC refused to a component's service account */
function denials(serviceAccount: string): Record<string, string>[] {
  return readFileSync(`${cluster.dataDir}/logs/apiserver.log`, 'utf8').split('\n')
    .map((l) => { try { return JSON.parse(l) as Record<string, string>; } catch { return undefined; } })
    .filter((e): e is Record<string, string> => e?.msg === 'RBAC denied a service account' && e.user === `system:serviceaccount:kubevirt:${serviceAccount}`);
}
async function vmiRunning(timeoutMs: number) {
  return until('demo VMI Running', async () => {
    const r = await kubectl('get', 'vmi', 'demo', '-o', 'json');
    const v = r.code === 0 ? JSON.parse(r.out) : undefined;
    return v?.status?.phase === 'Running' ? v : undefined;
  }, timeoutMs);
}

const DEMO_VM = `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata: {name: demo, namespace: default}
spec:
  runStrategy: Always
  template:
    spec:
      terminationGracePeriodSeconds: 0
      domain:
        memory: {guest: 128Mi}
        devices:
          disks: [{name: root, disk: {bus: virtio}}]
      volumes: [{name: root, containerDisk: {image: demo}}]
`;

const MIGRATION = `apiVersion: kubevirt.io/v1
kind: VirtualMachineInstanceMigration
metadata: {name: demo-migration, namespace: default}
spec: {vmiName: demo}
`;

/** a disk without a volume: KubeVirt's validating webhook refuses it */
const BAD_VM = `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata: {name: bad, namespace: default}
spec:
  runStrategy: Halted
  template:
    spec:
      domain:
        memory: {guest: 128Mi}
        devices:
          disks: [{name: root, disk: {bus: virtio}}]
      volumes: []
`;

/** kubevirt-ts component processes this cluster's kubelets started (they run the cluster's kv bundle) */
function componentProcesses(): string[] {
  const out: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8');
      if (!env.includes(`KV_BUNDLE=${cluster.dataDir}/`)) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (/kv\.mjs (virt-api|controller|handler|console|launcher)\b/.test(args)) out.push(`${pid} ${args}`);
    } catch { /* gone meanwhile */ }
  }
  return out;
}

beforeAll(async () => {
  cluster = await startCluster({ bare: true, nodes: 2, console: false, timeoutMs: 180_000 });
  k = makeKubectl(cluster.kubeconfig, '60s');
}, 200_000);
afterAll(async () => {
  k?.dispose();
  await cluster?.stop();
}, 90_000);

describe('kubectl apply -k deploy/cluster onto kv up --bare', () => {
  it('needs the pod network: Pods have their own IPs and the kubernetes Service points at an address they reach', async () => {
    const nodes = (await json('get', 'nodes')).items as { spec: { podCIDR?: string } }[];
    expect(nodes.every((n) => n.spec.podCIDR), 'run with the pod network (KV_POD_NETWORK unset) and no other kv up').toBe(true);
    expect((await ok('get', 'endpoints', 'kubernetes', '-o', 'jsonpath={.subsets[0].addresses[0].ip}'))).not.toMatch(/^127\./);
  });

  it('installs: virt-api, virt-controller, the console and a virt-handler per node Ready; install → ready time printed', { timeout: 300_000 }, async () => {
    installStarted = performance.now();
    const { certs, consoleReady, readyMs } = await installFromDeploy(k);
    expect(certs).toContain('secret/virt-api-certs created');
    expect(certs).toContain('validatingwebhookconfiguration/virt-api-validator caBundle set');
    if (!consoleReady) console.log('no console build (.next/BUILD_ID): the kubevirt-console Pod cannot start; not waited for');
    console.log(`install → ready: ${(readyMs / 1000).toFixed(1)} s`);
    const handlers = (await json('-n', 'kubevirt', 'get', 'pods', '-l', 'kubevirt.io=virt-handler')).items as { spec: { nodeName: string } }[];
    expect(handlers.map((p) => p.spec.nodeName).sort()).toEqual(['node-1', 'node-2']);
    // each handler advertised its endpoint on its Node (virt-api finds it there) and made it schedulable
    await until('schedulable nodes', async () => {
      const ns = (await json('get', 'nodes')).items as { metadata: { labels?: Record<string, string>; annotations?: Record<string, string> } }[];
      return ns.every((n) => n.metadata.labels?.['kubevirt.io/schedulable'] === 'true' && n.metadata.annotations?.['kubevirt.io/handler-endpoint']);
    }, 60_000);
  });

  it('the subresources APIServices are Available (Passed); kubectl wait says so', { timeout: 120_000 }, async () => {
    await ok('wait', 'apiservice', 'v1.subresources.kubevirt.io', 'v1alpha3.subresources.kubevirt.io', '--for=condition=Available', '--timeout=60s');
    const cond = (await json('get', 'apiservice', 'v1.subresources.kubevirt.io')).status.conditions.find((c: { type: string }) => c.type === 'Available');
    expect(cond).toMatchObject({ status: 'True', reason: 'Passed' });
  });

  it('the subresources API answers through the aggregation layer and the webhooks refuse a bad VM with KubeVirt\'s message', { timeout: 120_000 }, async () => {
    const discovery = await until('subresources.kubevirt.io/v1 discovery', async () => {
      const r = await kubectl('get', '--raw', '/apis/subresources.kubevirt.io/v1');
      return r.code === 0 ? JSON.parse(r.out) : undefined;
    }, 60_000);
    expect(discovery.resources.map((r: { name: string }) => r.name)).toContain('virtualmachines/start');
    const refused = await kubectl('apply', '-f', k.file('bad.yaml', BAD_VM));
    expect(refused.code).not.toBe(0);
    // KubeVirt's validator answers with an Invalid status and its causes, which the API server passes on
    expect(refused.err.trim()).toBe("The request is invalid: spec.template.spec.domain.devices.disks[0].name: spec.template.spec.domain.devices.disks[0].Name 'root' not found.");
  });

  it('runs the demo VM on a node; its serial console answers through the installed virt-api; install → VM Running time printed', { timeout: 300_000 }, async () => {
    // the node-local image store (docs/cluster-mode.md, "containerDisk images"): every node of this
    // machine shares the host directory the handler DaemonSet mounts
    buildDemoImage();
    await ok('apply', '-f', k.file('demo.yaml', DEMO_VM));
    const vmi = await vmiRunning(240_000);
    console.log(`install → VM Running: ${((performance.now() - installStarted) / 1000).toFixed(1)} s`);
    expect(['node-1', 'node-2']).toContain(vmi.status.nodeName);
    // the launcher Pod asks no kubelet to pull the containerDisk: the launcher reads the node store
    const launcher = (await json('get', 'pods', '-l', `kubevirt.io/created-by=${vmi.metadata.uid}`)).items[0];
    expect(launcher.metadata.annotations).not.toHaveProperty('kubevirt-ts.io/container-disks');
    const shell = await openGuestShell(apiEndpoint(), 'default', 'demo', 180_000);
    try {
      expect(await shell.run('hostname')).toBe('demo');
    } finally { shell.close(); }
  });

  it('live-migrates the demo VM to the other node (VMIM Succeeded) and its console still answers', { timeout: 240_000 }, async () => {
    const source = (await json('get', 'vmi', 'demo')).status.nodeName as string;
    await ok('apply', '-f', k.file('migration.yaml', MIGRATION));
    const phase = await until('migration done', async () => {
      const p = (await json('get', 'vmim', 'demo-migration')).status?.phase as string | undefined;
      return p === 'Succeeded' || p === 'Failed' ? p : undefined;
    }, 180_000);
    expect(phase).toBe('Succeeded');
    const vmi = await json('get', 'vmi', 'demo');
    expect(vmi.status.phase).toBe('Running');
    expect(vmi.status.nodeName).toBe(source === 'node-1' ? 'node-2' : 'node-1');
    const shell = await openGuestShell(apiEndpoint(), 'default', 'demo', 60_000);
    try {
      expect(await shell.run('hostname')).toBe('demo');
    } finally { shell.close(); }
  });

  it('stops the demo VM; virt-handler removes its launchers\' pod dirs from the node once their Pods are gone', { timeout: 180_000 }, async () => {
    const uid = (await json('get', 'vmi', 'demo')).metadata.uid as string;
    const pods = (await json('get', 'pods', '-l', `kubevirt.io/created-by=${uid}`)).items as { metadata: { uid: string }; spec: { nodeName: string } }[];
    expect(pods).toHaveLength(1); // the migration target; the source's Pod went when the migration ended
    const podDirs = pods.map((p) => `${NODE_DIR}/nodes/${p.spec.nodeName}/pods/${p.metadata.uid}`);
    expect(podDirs.every((d) => existsSync(d))).toBe(true);
    await ok('patch', 'vm', 'demo', '--type=merge', '-p', '{"spec":{"runStrategy":"Halted"}}');
    await until('demo VMI gone', async () => (await kubectl('get', 'vmi', 'demo')).code !== 0, 120_000);
    await until('launcher Pods gone', async () => (await json('get', 'pods', '-l', `kubevirt.io/created-by=${uid}`)).items.length === 0, 60_000);
    await until('their pod dirs removed (virt-handler --clean-pod-dirs)', () => podDirs.every((d) => !existsSync(d)), 60_000);
  });

  it('virt-handler without update on virtualmachineinstances/status: the launcher runs but the VMI never reports Running, apiserver.log shows the denial; the role restored, it runs', { timeout: 300_000 }, async () => {
    await dropVerb('kubevirt-handler', 'virtualmachineinstances/status', 'update');
    await ok('patch', 'vm', 'demo', '--type=merge', '-p', '{"spec":{"runStrategy":"Always"}}');
    // every step before the handler's status write still works: the VMI is scheduled, its launcher runs
    const uid = await until('demo VMI', async () => {
      const r = await kubectl('get', 'vmi', 'demo', '-o', 'jsonpath={.metadata.uid}');
      return r.code === 0 && r.out ? r.out : undefined;
    }, 60_000);
    await until('launcher Pod Running', async () => {
      const pods = (await json('get', 'pods', '-l', `kubevirt.io/created-by=${uid}`)).items as { status?: { phase?: string } }[];
      return pods[0]?.status?.phase === 'Running';
    }, 120_000);
    const denial = await until('the denial in apiserver.log', () => denials('kubevirt-handler')
      .find((e) => e.resource === 'virtualmachineinstances' && e.subresource === 'status' && e.name === 'demo'), 60_000);
    expect(denial.verb).toBe('update');
    await new Promise((r) => setTimeout(r, 5000)); // the handler retries; none of its status writes can land
    expect((await json('get', 'vmi', 'demo')).status?.phase).not.toBe('Running');
    await ok('apply', '-f', `${ROOT}deploy/cluster/rbac-handler.yaml`);
    await vmiRunning(120_000);
  });

  it('virt-controller without create on pods: the VMI gets no launcher Pod (FailedCreate), apiserver.log shows the denial; the role restored, it runs', { timeout: 300_000 }, async () => {
    await ok('patch', 'vm', 'demo', '--type=merge', '-p', '{"spec":{"runStrategy":"Halted"}}');
    await until('demo VMI gone', async () => (await kubectl('get', 'vmi', 'demo')).code !== 0, 120_000);
    await dropVerb('kubevirt-controller', 'pods', 'create');
    await ok('patch', 'vm', 'demo', '--type=merge', '-p', '{"spec":{"runStrategy":"Always"}}');
    // the VM controller still creates the VMI (its verbs are intact); only the launcher Pod cannot be made
    const uid = await until('demo VMI', async () => {
      const r = await kubectl('get', 'vmi', 'demo', '-o', 'jsonpath={.metadata.uid}');
      return r.code === 0 && r.out ? r.out : undefined;
    }, 60_000);
    const denial = await until('the denial in apiserver.log', () => denials('kubevirt-controller').find((e) => e.resource === 'pods' && e.namespace === 'default'), 60_000);
    expect(denial.verb).toBe('create');
    await until('FailedCreate event', async () => (await json('get', 'events', '--field-selector', `involvedObject.uid=${uid},reason=FailedCreate`)).items.length > 0, 60_000);
    expect((await json('get', 'pods', '-l', `kubevirt.io/created-by=${uid}`)).items).toEqual([]);
    expect((await json('get', 'vmi', 'demo')).status?.phase ?? 'Pending').toBe('Pending');
    await ok('apply', '-f', `${ROOT}deploy/cluster/rbac-controller.yaml`);
    await vmiRunning(180_000);
  });

  it('kubectl delete -k deploy/cluster leaves no kubevirt-ts object, Pod or process', { timeout: 240_000 }, async () => {
    // VMs go first, while virt-controller still runs to remove their finalizers (as with KubeVirt)
    await ok('delete', 'vm,vmi', '--all', '-A', '--ignore-not-found', '--wait=true', '--timeout=120s');
    await ok('delete', '-k', `${ROOT}deploy/cluster`, '--ignore-not-found', '--wait=true', '--timeout=180s');
    await ok('delete', '-f', `${ROOT}deploy/crds`, '--ignore-not-found', '--wait=true', '--timeout=60s');
    await until('no kubevirt namespace', async () => (await kubectl('get', 'namespace', 'kubevirt')).code !== 0, 120_000);
    await until('no component process', () => componentProcesses().length === 0, 60_000);
    expect((await ok('get', 'pods', '-A', '-o', 'name'))).toBe('');
    expect((await ok('get', 'crd', '-o', 'name'))).not.toContain('kubevirt.io');
    expect((await ok('get', 'apiservices', '-o', 'name'))).not.toContain('kubevirt.io');
    expect((await ok('get', 'validatingwebhookconfigurations,mutatingwebhookconfigurations', '-o', 'name'))).not.toContain('virt-api');
    expect((await ok('get', 'clusterroles,clusterrolebindings', '-o', 'name')).split('\n').filter((n) => /kubevirt/.test(n))).toEqual([]);
    expect(existsSync(NODE_DIR)).toBe(true); // the node's hostPath stays, as on kind's nodes
  });
});
