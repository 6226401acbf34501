import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/test-server';

/** The bootstrap policy across a restart on the same store: reconciled as kube-apiserver does. */
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const dataDir = mkdtempSync(join(tmpdir(), 'kv-rbac-bootstrap-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const get = async (t: TestServer, path: string) => (await t.call('GET', `${RBAC}/${path}`)).body;
const put = async (t: TestServer, path: string, obj: unknown) => {
  const r = await t.call('PUT', `${RBAC}/${path}`, obj);
  expect(r.status).toBe(200);
};

describe('bootstrap policy reconciliation', () => {
  it('keeps what a user added, leaves autoupdate=false alone, recreates what was deleted, rewrites nothing else', async () => {
    let t = await startTestServer({ memory: false, dataDir });
    const basic = await get(t, 'clusterroles/system:basic-user');
    basic.rules.push({ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] });
    basic.metadata.labels.mine = 'yes';
    await put(t, 'clusterroles/system:basic-user', basic);
    const binding = await get(t, 'clusterrolebindings/system:basic-user');
    binding.subjects.push({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'guest' });
    await put(t, 'clusterrolebindings/system:basic-user', binding);
    const monitoring = await get(t, 'clusterroles/system:monitoring');
    monitoring.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'] = 'false';
    monitoring.rules = [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }];
    await put(t, 'clusterroles/system:monitoring', monitoring);
    expect((await t.call('DELETE', `${RBAC}/clusterroles/kubevirt.io:migrate`)).status).toBe(200);
    const viewVersion = (await get(t, 'clusterroles/view')).metadata.resourceVersion;
    const basicVersion = (await get(t, 'clusterroles/system:basic-user')).metadata.resourceVersion;
    await t.close();

    t = await startTestServer({ memory: false, dataDir });
    try {
      const after = await get(t, 'clusterroles/system:basic-user');
      expect(after.metadata.resourceVersion).toBe(basicVersion);
      expect(after.rules).toContainEqual({ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] });
      expect(after.metadata.labels.mine).toBe('yes');
      expect((await get(t, 'clusterrolebindings/system:basic-user')).subjects).toContainEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'guest' });
      expect((await get(t, 'clusterroles/system:monitoring')).rules).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
      expect((await get(t, 'clusterroles/kubevirt.io:migrate')).rules).toContainEqual({ apiGroups: ['subresources.kubevirt.io'], resources: ['virtualmachines/migrate'], verbs: ['update'] });
      expect((await get(t, 'clusterroles/view')).metadata.resourceVersion).toBe(viewVersion);
    } finally {
      await t.close();
    }
  });
});

describe('malformed RBAC objects', () => {
  it('are refused with a 400 and never reach the authorizer', async () => {
    const t = await startTestServer();
    try {
      const r = await t.call('POST', `${RBAC}/namespaces/default/rolebindings`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'x' }, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: { kind: 'User', name: 'a' } });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('RoleBinding in version "v1" cannot be handled as a RoleBinding: json: cannot unmarshal object into Go struct field RoleBinding.subjects of type []v1.Subject');
      expect((await t.call('GET', '/api/v1/namespaces/default/pods', undefined, { token: t.srv.viewerToken })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('a bare API server (no KubeVirt CRDs)', () => {
  it("bootstraps Kubernetes' policy and this cluster's kv:* roles, none of KubeVirt's: those come with the install", async () => {
    const t = await startTestServer({ installCRDs: false });
    try {
      const roles = (await get(t, 'clusterroles')).items.map((r: { metadata: { name: string } }) => r.metadata.name);
      const bindings = (await get(t, 'clusterrolebindings')).items.map((r: { metadata: { name: string } }) => r.metadata.name);
      expect(roles).toEqual(expect.arrayContaining(['view', 'edit', 'admin', 'cluster-admin', 'kv:cluster-reader']));
      expect([...roles, ...bindings].filter((n: string) => /kubevirt/.test(n))).toEqual([]);
      expect(bindings).toContain('kv:viewers');
    } finally {
      await t.close();
    }
  });
});
