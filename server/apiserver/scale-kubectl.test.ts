import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/test-server';
import { kubectlWithToken, type Kubectl } from '../../e2e/support/kubectl';

/** The scale subresource of replica sets and pools, driven by the real kubectl. */
let t: TestServer;
let k: Kubectl;
const kubectl = (...args: string[]) => k.run(...args);

const RS = `apiVersion: kubevirt.io/v1
kind: VirtualMachineInstanceReplicaSet
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      domain:
        devices: {}
        resources:
          requests: {memory: 64Mi}
`;
const RS_PATH = '/apis/kubevirt.io/v1/namespaces/default/virtualmachineinstancereplicasets/web';

beforeAll(async () => {
  t = await startTestServer();
  k = kubectlWithToken(t.srv, t.srv.adminToken);
});
afterAll(async () => {
  k?.dispose();
  await t?.close();
});

describe('scale subresource (kubectl scale vmirs)', () => {
  it('kubectl scale sets spec.replicas; the Scale shows status replicas and the selector the controller wrote', async () => {
    expect((await kubectl('apply', '-f', k.file('rs.yaml', RS))).code).toBe(0);
    const scaled = await kubectl('scale', 'vmirs', 'web', '--replicas', '5');
    expect(scaled.err).toBe('');
    expect(scaled.out).toContain('scaled');
    expect((await t.call('GET', RS_PATH)).body.spec.replicas).toBe(5);

    await t.call('PATCH', `${RS_PATH}/status`, { status: { replicas: 3, readyReplicas: 1, labelSelector: 'app=web' } }, { contentType: 'application/merge-patch+json' });
    const scale = await t.call('GET', `${RS_PATH}/scale`);
    expect(scale.status).toBe(200);
    expect(scale.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 5 }, status: { replicas: 3, selector: 'app=web' } });

    const table = await kubectl('get', 'vmirs', 'web');
    expect(table.out).toMatch(/NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE/);
    expect(table.out).toMatch(/web\s+5\s+3\s+1\s+/);
  });

  it('a precondition that does not hold and negative replicas are refused; PUT with the current resourceVersion works', async () => {
    const stale = await kubectl('scale', 'vmirs', 'web', '--current-replicas=9', '--replicas=1');
    expect(stale.code).not.toBe(0);
    expect(stale.err).toContain('Expected replicas to be 9, was 5');

    const negative = await t.call('PATCH', `${RS_PATH}/scale`, { spec: { replicas: -1 } }, { contentType: 'application/merge-patch+json' });
    expect(negative.status).toBe(422);
    expect(negative.body.message).toContain('spec.replicas: Invalid value: -1: must be greater than or equal to 0');

    const scale = (await t.call('GET', `${RS_PATH}/scale`)).body;
    const put = await t.call('PUT', `${RS_PATH}/scale`, { ...scale, spec: { replicas: 0 } });
    expect(put.status).toBe(200);
    expect(put.body.spec.replicas).toBe(0);
    const conflict = await t.call('PUT', `${RS_PATH}/scale`, { ...scale, spec: { replicas: 2 } });
    expect(conflict.status).toBe(409);
  });

  it('a deprecated kind (presets) warns on every request, as kube-apiserver does', async () => {
    const list = await kubectl('get', 'vmipresets');
    expect(list.code).toBe(0);
    expect(list.err).toContain('Warning: kubevirt.io/v1 VirtualMachineInstancePresets is now deprecated and will be removed in v2.');
    expect((await kubectl('get', 'vmirs')).err).toBe('');
  });

  it('a pool written as pool.kubevirt.io/v1alpha1 (older KubeVirt manifests) is the same object in v1beta1', async () => {
    const pool = k.file('pool.yaml', `apiVersion: pool.kubevirt.io/v1alpha1
kind: VirtualMachinePool
metadata: {name: old}
spec:
  replicas: 1
  selector: {matchLabels: {app: old}}
  virtualMachineTemplate:
    metadata: {labels: {app: old}}
    spec: {runStrategy: Always, template: {spec: {domain: {devices: {}}}}}
`);
    const applied = await kubectl('apply', '-f', pool);
    expect(applied.out, applied.err).toBe('virtualmachinepool.pool.kubevirt.io/old created\n');
    const v1beta1 = await t.call('GET', '/apis/pool.kubevirt.io/v1beta1/namespaces/default/virtualmachinepools/old');
    expect(v1beta1.body).toMatchObject({ apiVersion: 'pool.kubevirt.io/v1beta1', spec: { replicas: 1 } });
    expect((await kubectl('scale', 'vmpool', 'old', '--replicas', '4')).code).toBe(0);
    expect((await t.call('GET', '/apis/pool.kubevirt.io/v1alpha1/namespaces/default/virtualmachinepools/old')).body.spec.replicas).toBe(4);
  });

  it('discovery lists the scale subresource of replica sets and pools, none for presets', async () => {
    type Doc = { name: string; group?: string; version?: string; kind: string };
    const core = ((await t.call('GET', '/apis/kubevirt.io/v1')).body.resources as Doc[]).map((r) => r.name);
    expect(core).toContain('virtualmachineinstancereplicasets/scale');
    expect(core).not.toContain('virtualmachineinstancepresets/scale');
    const pool = (await t.call('GET', '/apis/pool.kubevirt.io/v1beta1')).body.resources as Doc[];
    expect(pool.find((r) => r.name === 'virtualmachinepools/scale')).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    expect((await t.call('GET', `${RS_PATH.replace('replicasets', 'presets')}/scale`)).status).toBe(404);
    expect((await t.call('GET', '/apis/pool.kubevirt.io')).body.preferredVersion.version).toBe('v1beta1');
  });
});
