import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKubeconfig } from './kubeconfig';
import { startTestServer, type TestServer } from './testing/test-server';
import { makeKubectl, type Kubectl } from '../../e2e/support/kubectl';

/** apps/v1 Deployment, ReplicaSet and DaemonSet as the real kubectl sees them: defaults, validation, columns, scale. */
let t: TestServer;
let home: string;
let k: Kubectl;
const kubectl = (...args: string[]) => k.run(...args);

const deployment = (labels: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: ${labels}}
    spec:
      containers: [{name: main, image: busybox:1.36, command: [sleep, "3600"]}]
`;
const DEPLOY_PATH = '/apis/apps/v1/namespaces/default/deployments/web';

beforeAll(async () => {
  t = await startTestServer();
  home = mkdtempSync(join(tmpdir(), 'kv-apps-home-'));
  const kubeconfig = join(home, 'kubeconfig');
  writeKubeconfig(kubeconfig, { server: t.srv.url, caPem: t.srv.caPem, token: t.srv.adminToken });
  k = makeKubectl(kubeconfig, '20s');
});
afterAll(async () => {
  k?.dispose();
  await t?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('apps/v1 workloads served by the embedded API server', () => {
  it('refuses a Deployment whose selector does not match its template labels, with kube’s message', async () => {
    const r = await kubectl('apply', '-f', k.file('bad.yaml', deployment('{app: other}')));
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('The Deployment "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: `selector` does not match template `labels`');
  });

  it('defaults a Deployment as kube does and prints kubectl get deploy columns', async () => {
    const r = await kubectl('apply', '-f', k.file('web.yaml', deployment('{app: web}')));
    expect(r.err).toBe('');
    const d = (await t.call('GET', DEPLOY_PATH)).body;
    expect(d.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    expect(d.spec.revisionHistoryLimit).toBe(10);
    expect(d.spec.progressDeadlineSeconds).toBe(600);
    expect(d.spec.template.spec.restartPolicy).toBe('Always');
    expect(d.metadata.generation).toBe(1);
    const get = await kubectl('get', 'deploy', '-o', 'wide');
    expect(get.out.split('\n')[0].split(/\s+/)).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    expect(get.out).toMatch(/web\s+0\/2\s+0\s+0\s+\S+\s+main\s+busybox:1.36\s+app=web/);
  });

  it('kubectl scale deploy changes spec.replicas and bumps the generation; the selector is immutable', async () => {
    expect((await kubectl('scale', 'deploy', 'web', '--replicas=3')).out).toContain('deployment.apps/web scaled');
    const d = (await t.call('GET', DEPLOY_PATH)).body;
    expect(d.spec.replicas).toBe(3);
    expect(d.metadata.generation).toBe(2);
    const scale = (await t.call('GET', `${DEPLOY_PATH}/scale`)).body;
    expect(scale.status.selector).toBe('app=web');
    const r = await kubectl('patch', 'deploy', 'web', '--type=merge', '-p', '{"spec":{"selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"labels":{"app":"x"}}}}}');
    expect(r.err).toContain('spec.selector: Invalid value:');
    expect(r.err).toContain('field is immutable');
  });

  it('a DaemonSet gets RollingUpdate maxUnavailable 1 and kubectl get ds prints its columns', async () => {
    const ds = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      containers: [{name: main, image: busybox:1.36}]
`;
    expect((await kubectl('apply', '-f', k.file('ds.yaml', ds))).err).toBe('');
    const got = (await t.call('GET', '/apis/apps/v1/namespaces/default/daemonsets/agent')).body;
    expect(got.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    const get = await kubectl('get', 'ds');
    expect(get.out.split('\n')[0].split(/\s{2,}/)).toEqual(['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE']);
    expect(get.out).toMatch(/agent\s+0\s+0\s+0\s+0\s+0\s+kubernetes.io\/os=linux/);
  });

  it('kubectl create deployment (a protobuf body) makes the Deployment kubectl asked for', async () => {
    const r = await kubectl('create', 'deployment', 'made', '--image=busybox:1.36', '--replicas=3', '--port=8080', '--', 'sleep', '60');
    expect(r.err).toBe('');
    expect(r.out).toContain('deployment.apps/made created');
    const d = (await t.call('GET', '/apis/apps/v1/namespaces/default/deployments/made')).body;
    expect(d.metadata.labels).toEqual({ app: 'made' });
    expect(d.spec.replicas).toBe(3);
    expect(d.spec.selector).toEqual({ matchLabels: { app: 'made' } });
    expect(d.spec.strategy.type).toBe('RollingUpdate');
    expect(d.spec.template.metadata.labels).toEqual({ app: 'made' });
    expect(d.spec.template.spec.containers).toEqual([expect.objectContaining({ name: 'busybox', image: 'busybox:1.36', command: ['sleep', '60'], ports: [{ containerPort: 8080, protocol: 'TCP' }], resources: {} })]);
    expect(d.spec.minReadySeconds).toBeUndefined();
  });

  it('a ReplicaSet with replicas -1 is refused with kube’s message', async () => {
    const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'bad' }, spec: { replicas: -1, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } } } };
    const r = await t.call('POST', '/apis/apps/v1/namespaces/default/replicasets', rs);
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('ReplicaSet.apps "bad" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });
});
