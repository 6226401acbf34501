import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V1Deployment, V1OwnerReference, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubectl, type Kubectl } from '../../e2e/support/kubectl';
import { makeKubeClients, type KubeClients } from '../kube/clients';
import { startTestApiServer } from '../kube/testing/api-server';
import { waitFor } from '../kube/testing/wait-for';
import { Kubelet } from '../node/kubelet';
import { Scheduler } from '../node/scheduler';
import { startKubeControllers } from './start';

/**
 * Deployments, ReplicaSets and DaemonSets end to end on a real embedded API server with the
 * scheduler, two process-kubelets and the workload controllers, driven by the real kubectl.
 */
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      terminationGracePeriodSeconds: 1
      containers: [{name: main, image: host, command: [sleep, "3600"]}]
`;
const DAEMONSET = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      terminationGracePeriodSeconds: 1
      containers: [{name: main, image: host, command: [sleep, "3600"]}]
`;

/** the fields of a ReplicaSet the assertions read (always set on what the controller created) */
interface RS { metadata: { name: string; labels: Record<string, string>; annotations: Record<string, string>; ownerReferences: V1OwnerReference[] }; spec: { replicas: number } }

let api: Awaited<ReturnType<typeof startTestApiServer>>;
let c: KubeClients;
let k: Kubectl;
const stop = new AbortController();
const running: Promise<unknown>[] = [];
const kubectl = (...args: string[]) => k.run(...args);

const pods = async (selector: string) => (await c.core.listNamespacedPod({ namespace: 'default', labelSelector: selector })).items
  .filter((p: V1Pod) => !p.metadata?.deletionTimestamp);
const sets = async () => (await c.custom.listNamespacedCustomObject({ group: 'apps', version: 'v1', plural: 'replicasets', namespace: 'default' }) as { items: RS[] }).items;
const rolloutStatus = (what: string) => kubectl('rollout', 'status', what, '--timeout=90s');

beforeAll(async () => {
  api = await startTestApiServer();
  c = makeKubeClients(api.kc);
  const kubeconfig = join(api.dataDir, 'kubectl-kubeconfig');
  writeFileSync(kubeconfig, api.kc.exportConfig());
  k = makeKubectl(kubeconfig, '30s');
  for (const nodeName of ['node-a', 'node-b']) {
    const kubelet = new Kubelet({ kc: api.kc, nodeName, dataDir: api.dataDir, nodesTotal: 2, leaseIntervalMs: 500, restartBackoffBaseMs: 50, stopPodsOnExit: true, allowHostCommands: true, podNetwork: false });
    running.push(kubelet.run(stop.signal));
  }
  running.push(new Scheduler(api.kc).run(stop.signal));
  running.push(startKubeControllers(api.kc, stop.signal).done);
}, 60_000);
afterAll(async () => {
  stop.abort();
  await Promise.all(running);
  k?.dispose();
  await api?.stop();
}, 60_000);

describe('workload controllers (Deployment → ReplicaSet → Pods, DaemonSet)', () => {
  it('kubectl apply of a 2-replica Deployment: one ReplicaSet named by its pod-template-hash, 2 Running Pods it controls, rollout status succeeds', async () => {
    expect((await kubectl('apply', '-f', k.file('web.yaml', DEPLOYMENT))).err).toBe('');
    const status = await rolloutStatus('deploy/web');
    expect(status.err).toBe('');
    expect(status.out).toContain('deployment "web" successfully rolled out');
    const [rs] = await sets();
    const hash = rs.metadata.labels['pod-template-hash'];
    expect(rs.metadata.name).toBe(`web-${hash}`);
    expect(rs.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
    expect(rs.metadata.ownerReferences[0]).toMatchObject({ kind: 'Deployment', name: 'web', controller: true });
    const running2 = await pods('app=web');
    expect(running2.map((p) => p.status?.phase)).toEqual(['Running', 'Running']);
    for (const p of running2) {
      expect(p.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ReplicaSet', name: rs.metadata.name, controller: true });
      expect(p.metadata?.name?.startsWith(`web-${hash}-`)).toBe(true);
    }
    const get = await kubectl('get', 'deploy', 'web');
    expect(get.out).toMatch(/web\s+2\/2\s+2\s+2\s/);
    const d = (await c.custom.getNamespacedCustomObject({ group: 'apps', version: 'v1', plural: 'deployments', namespace: 'default', name: 'web' })) as V1Deployment;
    expect(d.status?.conditions?.map((x) => [x.type, x.status, x.reason])).toEqual([['Available', 'True', 'MinimumReplicasAvailable'], ['Progressing', 'True', 'NewReplicaSetAvailable']]);
  }, 120_000);

  it('kubectl set env rolls out a new ReplicaSet (revision 2), the old one scaled to 0; rollout undo brings revision 1 back as revision 3', async () => {
    const first = (await sets())[0].metadata.name;
    expect((await kubectl('set', 'env', 'deploy/web', 'GREETING=hello')).err).toBe('');
    expect((await rolloutStatus('deploy/web')).out).toContain('successfully rolled out');
    const after = await sets();
    expect(after).toHaveLength(2);
    const byName = Object.fromEntries(after.map((rs) => [rs.metadata.name, rs]));
    expect(byName[first].spec.replicas).toBe(0);
    const second = after.find((rs) => rs.metadata.name !== first)!;
    expect(second.spec.replicas).toBe(2);
    expect(second.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
    await waitFor(async () => (await pods('app=web')).length === 2 && (await pods('app=web')).every((p) => p.metadata?.labels?.['pod-template-hash'] === second.metadata.labels['pod-template-hash']), 30_000, 'only new pods');
    expect((await pods('app=web'))[0].spec?.containers[0].env).toEqual([{ name: 'GREETING', value: 'hello' }]);

    const undo = await kubectl('rollout', 'undo', 'deploy/web');
    expect(undo.err).toBe('');
    expect((await rolloutStatus('deploy/web')).out).toContain('successfully rolled out');
    expect(await sets()).toHaveLength(2);
    const undone = Object.fromEntries((await sets()).map((rs) => [rs.metadata.name, rs]));
    expect(undone[first].spec.replicas).toBe(2);
    expect(undone[first].metadata.annotations['deployment.kubernetes.io/revision']).toBe('3');
    expect(undone[second.metadata.name].spec.replicas).toBe(0);
    const history = await kubectl('rollout', 'history', 'deploy/web');
    expect(history.out).toMatch(/2\s+<none>\s*\n3\s+<none>/);
  }, 180_000);

  it('kubectl scale deploy --replicas=3 gives 3 Running Pods and READY 3/3', async () => {
    expect((await kubectl('scale', 'deploy', 'web', '--replicas=3')).out).toContain('scaled');
    expect((await rolloutStatus('deploy/web')).out).toContain('successfully rolled out');
    expect((await pods('app=web')).filter((p) => p.status?.phase === 'Running')).toHaveLength(3);
    expect((await kubectl('get', 'deploy', 'web')).out).toMatch(/web\s+3\/3\s+3\s+3\s/);
  }, 120_000);


  it('a DaemonSet runs one Pod per Node, pinned by node affinity and tolerating kube’s default taints', async () => {
    expect((await kubectl('apply', '-f', k.file('ds.yaml', DAEMONSET))).err).toBe('');
    expect((await rolloutStatus('ds/agent')).out).toContain('daemon set "agent" successfully rolled out');
    const agents = await pods('app=agent');
    expect(agents.map((p) => p.spec?.nodeName).sort()).toEqual(['node-a', 'node-b']);
    const terms = agents[0].spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
    expect(terms).toEqual([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [agents[0].spec?.nodeName] }] }]);
    expect(agents[0].spec?.tolerations).toContainEqual({ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' });
    expect((await kubectl('get', 'ds', 'agent')).out).toMatch(/agent\s+2\s+2\s+2\s+2\s+2\s+<none>/);
  }, 120_000);

  it('settled workloads are left alone: no status write loop (resourceVersions hold still)', async () => {
    const versions = async () => JSON.stringify(await Promise.all(['deployments', 'replicasets', 'daemonsets'].map(async (plural) =>
      ((await c.custom.listNamespacedCustomObject({ group: 'apps', version: 'v1', plural, namespace: 'default' })) as { items: { metadata: { resourceVersion: string } }[] }).items.map((o) => o.metadata.resourceVersion).sort())));
    const before = await versions();
    await new Promise((r) => setTimeout(r, 1500));
    expect(await versions()).toBe(before);
  }, 30_000);

  it('deleting the Deployment removes its ReplicaSets and Pods (garbage collector, background propagation)', async () => {
    expect((await kubectl('delete', 'deploy', 'web')).err).toBe('');
    await waitFor(async () => (await sets()).length === 0, 30_000, 'replica sets gone');
    await waitFor(async () => (await c.core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' })).items.length === 0, 30_000, 'pods gone');
  }, 60_000);

  it('kubectl delete ds --cascade=foreground returns once the DaemonSet and its Pods are gone', async () => {
    const del = await kubectl('delete', 'ds', 'agent', '--cascade=foreground', '--timeout=60s');
    expect(del.err).toBe('');
    expect((await c.core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=agent' })).items).toEqual([]);
  }, 90_000);

  it('Recreate: a template change scales the old ReplicaSet to 0 before the new one runs; --cascade=orphan keeps the ReplicaSets', async () => {
    const recreate = DEPLOYMENT.replace('name: web}', 'name: rec}').replaceAll('app: web', 'app: rec').replace('  replicas: 2\n', '  replicas: 2\n  strategy: {type: Recreate}\n');
    expect((await kubectl('apply', '-f', k.file('rec.yaml', recreate))).err).toBe('');
    expect((await rolloutStatus('deploy/rec')).out).toContain('successfully rolled out');
    expect((await kubectl('set', 'env', 'deploy/rec', 'MODE=two')).err).toBe('');
    expect((await rolloutStatus('deploy/rec')).out).toContain('successfully rolled out');
    const recSets = await sets();
    expect(recSets.map((rs) => rs.spec.replicas).sort()).toEqual([0, 2]);
    const [oldSet, newSet] = [recSets.find((rs) => rs.spec.replicas === 0)!, recSets.find((rs) => rs.spec.replicas === 2)!];
    const scaling = await waitFor(async () => {
      const evs = (await c.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=rec' })).items
        .filter((e) => e.reason === 'ScalingReplicaSet').sort((a, b) => Number(a.metadata?.resourceVersion) - Number(b.metadata?.resourceVersion)).map((e) => e.message);
      return evs.length >= 3 ? evs : undefined;
    }, 10_000, 'three scaling events');
    // the old set went to 0 before the new one was scaled up from 0
    expect(scaling.indexOf(`Scaled down replica set ${oldSet.metadata.name} from 2 to 0`)).toBeLessThan(scaling.indexOf(`Scaled up replica set ${newSet.metadata.name} from 0 to 2`));
    expect(scaling.indexOf(`Scaled down replica set ${oldSet.metadata.name} from 2 to 0`)).toBeGreaterThanOrEqual(0);
    expect((await kubectl('delete', 'deploy', 'rec', '--cascade=orphan')).err).toBe('');
    await waitFor(async () => (await sets()).every((rs) => !(rs.metadata.ownerReferences ?? []).length), 30_000, 'replica sets orphaned');
    expect(await sets()).toHaveLength(2);
    expect((await pods('app=rec')).filter((p) => p.status?.phase === 'Running')).toHaveLength(2);
  }, 180_000);
});
