/**
 * What kube-apiserver and kube-controller-manager give every Pod and namespace, against a real API
 * server: ServiceAccount `default` and ConfigMap kube-root-ca.crt in each namespace, a Pod's
 * serviceAccountName defaulted, the kube-api-access projected volume mounted in every container,
 * automountServiceAccountToken honoured, and a Pod naming a missing ServiceAccount refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../kube/testing/wait-for';
import { startTestServer, type TestServer } from './testing/test-server';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(async () => { await t?.close(); });

const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'a', image: 'kubevirt-ts:latest' }, { name: 'b', image: 'kubevirt-ts:latest' }], initContainers: [{ name: 'init', image: 'kubevirt-ts:latest' }], ...spec },
});

describe('ServiceAccount admission and the per-namespace controllers', () => {
  it('publishes ServiceAccount default and kube-root-ca.crt (the API server CA) in a new namespace', async () => {
    expect((await t.call('POST', '/api/v1/namespaces', { metadata: { name: 'fresh' } })).status).toBe(201);
    const sa = await waitFor(async () => { const r = await t.call('GET', '/api/v1/namespaces/fresh/serviceaccounts/default'); return r.status === 200 ? r.body : undefined; }, 5000, 'default SA');
    expect(sa.metadata.uid).toBeTruthy();
    const cm = await waitFor(async () => { const r = await t.call('GET', '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt'); return r.status === 200 ? r.body : undefined; }, 5000, 'root CA');
    expect(cm.data['ca.crt']).toBe(t.srv.caPem);
  });

  it('puts kube-root-ca.crt back after it is deleted or changed', async () => {
    await waitFor(async () => (await t.call('GET', '/api/v1/namespaces/default/configmaps/kube-root-ca.crt')).status === 200, 5000, 'root CA');
    await t.call('DELETE', '/api/v1/namespaces/default/configmaps/kube-root-ca.crt');
    await waitFor(async () => (await t.call('GET', '/api/v1/namespaces/default/configmaps/kube-root-ca.crt')).status === 200, 5000, 'recreated');
    await t.call('PATCH', '/api/v1/namespaces/default/configmaps/kube-root-ca.crt', { data: { 'ca.crt': 'forged' } }, { contentType: 'application/merge-patch+json' });
    await waitFor(async () => (await t.call('GET', '/api/v1/namespaces/default/configmaps/kube-root-ca.crt')).body.data?.['ca.crt'] === t.srv.caPem, 5000, 'repaired');
  });

  it('defaults serviceAccountName and mounts kube-api-access-<5> in every container, as kube-apiserver', async () => {
    const r = await t.call('POST', '/api/v1/namespaces/default/pods', pod('with-token'));
    expect(r.status).toBe(201);
    const spec = r.body.spec;
    expect(spec.serviceAccountName).toBe('default');
    const vol = spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
    expect(vol.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(vol.projected.sources).toEqual([
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ]);
    for (const c of [...spec.containers, ...spec.initContainers]) {
      expect(c.volumeMounts).toContainEqual({ name: vol.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' });
    }
  });

  it('mounts nothing when the Pod or its ServiceAccount says automountServiceAccountToken: false', async () => {
    const off = await t.call('POST', '/api/v1/namespaces/default/pods', pod('no-token', { automountServiceAccountToken: false }));
    expect(off.status).toBe(201);
    expect(off.body.spec.volumes ?? []).toEqual([]);
    await t.call('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'quiet' }, automountServiceAccountToken: false });
    const quiet = await t.call('POST', '/api/v1/namespaces/default/pods', pod('quiet-pod', { serviceAccountName: 'quiet' }));
    expect(quiet.status).toBe(201);
    expect(quiet.body.spec.volumes ?? []).toEqual([]);
  });

  it('refuses a Pod whose ServiceAccount does not exist, with kube\'s message', async () => {
    const r = await t.call('POST', '/api/v1/namespaces/default/pods', pod('orphan', { serviceAccountName: 'ghost' }));
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('pods "orphan" is forbidden: error looking up service account default/ghost: serviceaccount "ghost" not found');
  });
});
