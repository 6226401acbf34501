/**
 * kube-apiserver's published aggregation settings, against a real API server: ConfigMap
 * kube-system/extension-apiserver-authentication carries the front-proxy CA, and a ServiceAccount
 * bound to Role extension-apiserver-authentication-reader reads it and nothing else in kube-system;
 * virt-api in a Pod (no CA on disk) takes its client CA from there.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubeConfig } from '../kube/kubeconfig';
import { loadServingCert } from '../virt-api/serving-cert';
import { startTestServer, type TestServer } from './testing/test-server';

let t: TestServer;
let podDataDir: string;
beforeAll(async () => { t = await startTestServer(); podDataDir = mkdtempSync(join(tmpdir(), 'kv-virt-api-pod-')); });
afterAll(async () => { await t?.close(); rmSync(podDataDir, { recursive: true, force: true }); });

describe('extension-apiserver-authentication', () => {
  it('publishes the front-proxy CA and kube\'s request-header settings', async () => {
    const r = await t.call('GET', '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication');
    expect(r.status).toBe(200);
    expect(r.body.data['requestheader-client-ca-file']).toBe(t.srv.caPem);
    expect(JSON.parse(r.body.data['requestheader-allowed-names'])).toEqual(['front-proxy-client']);
    expect(JSON.parse(r.body.data['requestheader-username-headers'])).toEqual(['X-Remote-User']);
  });

  it('lets a ServiceAccount bound to the reader Role read it, and only it, and virt-api in a Pod takes its CA from there', async () => {
    await t.call('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'agg' } });
    await t.call('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/kube-system/rolebindings', {
      metadata: { name: 'agg-auth-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'extension-apiserver-authentication-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'agg', namespace: 'default' }],
    });
    const tr = await t.call('POST', '/api/v1/namespaces/default/serviceaccounts/agg/token', { spec: {} });
    const token = tr.body.status.token as string;
    expect((await t.call('GET', '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication', undefined, { token })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/namespaces/kube-system/configmaps/kube-root-ca.crt', undefined, { token })).status).toBe(403);

    mkdirSync(join(podDataDir, 'virt-api'), { recursive: true });
    writeFileSync(join(podDataDir, 'virt-api', 'serving.crt'), 'CERT');
    writeFileSync(join(podDataDir, 'virt-api', 'serving.key'), 'KEY');
    const core = makeKubeConfig({ server: t.srv.url, token, caPem: t.srv.caPem }).makeApiClient(CoreV1Api);
    expect(await loadServingCert(podDataDir, core)).toEqual({ certPem: 'CERT', keyPem: 'KEY', caPem: t.srv.caPem });
  });

  it('virt-api without a certificate or the right to read the CA says what is missing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'kv-virt-api-empty-'));
    try {
      const core = makeKubeConfig({ server: t.srv.url, token: t.srv.viewerToken, caPem: t.srv.caPem }).makeApiClient(CoreV1Api);
      await expect(loadServingCert(empty, core)).rejects.toThrow(/no serving certificate: mount one at .*serving.crt/);
      mkdirSync(join(empty, 'virt-api'));
      writeFileSync(join(empty, 'virt-api', 'serving.crt'), 'CERT');
      writeFileSync(join(empty, 'virt-api', 'serving.key'), 'KEY');
      const anon = makeKubeConfig({ server: t.srv.url, caPem: t.srv.caPem }).makeApiClient(CoreV1Api);
      await expect(loadServingCert(empty, anon)).rejects.toThrow(/cannot read ConfigMap kube-system\/extension-apiserver-authentication \(bind Role extension-apiserver-authentication-reader\)/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
