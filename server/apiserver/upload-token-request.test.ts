/**
 * CDI's UploadTokenRequest against a real API server: a user whose namespace role is edit gets a
 * signed 5-minute token naming the PVC (verifiable with the published key), a viewer gets kube's
 * 403, a request without spec.pvcName is refused, and the kind is in discovery as CDI lists it.
 */
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlWithToken } from '../../e2e/support/kubectl';
import { UPLOAD_TOKEN_KEY_CONFIGMAP, verifyUploadToken } from '../kube/upload-token';
import { startTestServer, type TestServer } from './testing/test-server';

let t: TestServer;
const NS = 'team';
const UTR = `/apis/upload.cdi.kubevirt.io/v1beta1/namespaces/${NS}/uploadtokenrequests`;
const tokens: Record<string, string> = {};
const request = (pvcName?: string) => ({ apiVersion: 'upload.cdi.kubevirt.io/v1beta1', kind: 'UploadTokenRequest', metadata: { name: 'token-for-virtctl', namespace: NS }, spec: pvcName === undefined ? {} : { pvcName } });

beforeAll(async () => {
  t = await startTestServer();
  expect((await t.call('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  for (const [sa, role] of [['uploader', 'edit'], ['looker', 'view']] as const) {
    expect((await t.call('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: sa } })).status).toBe(201);
    const rb = { metadata: { name: sa }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [{ kind: 'ServiceAccount', name: sa, namespace: NS }] };
    expect((await t.call('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`, rb)).status).toBe(201);
    const tr = await t.call('POST', `/api/v1/namespaces/${NS}/serviceaccounts/${sa}/token`, { spec: {} });
    expect(tr.status).toBe(201);
    tokens[sa] = tr.body.status.token;
  }
});
afterAll(async () => { await t?.close(); });

describe('UploadTokenRequest', () => {
  it('gives an editor a 5-minute token for the PVC, verifiable with the published key', async () => {
    const r = await t.call('POST', UTR, request('disk'), { token: tokens.uploader });
    expect(r.status).toBe(200); // as CDI's, not kube's 201
    expect(r.body).toMatchObject({ kind: 'UploadTokenRequest', apiVersion: 'upload.cdi.kubevirt.io/v1beta1', spec: { pvcName: 'disk' } });
    const { namespace, name, key } = UPLOAD_TOKEN_KEY_CONFIGMAP;
    const cm = await t.call('GET', `/api/v1/namespaces/${namespace}/configmaps/${name}`);
    expect(cm.status).toBe(200);
    const check = verifyUploadToken(createPublicKey(cm.body.data[key]), r.body.status.token);
    expect(check).toMatchObject({ ok: true, claims: { namespace: NS, name: 'disk', operation: 'Upload' } });
    if (check.ok) expect(check.claims.exp - check.claims.iat).toBe(300);
  });

  it('refuses a viewer with kube\'s 403', async () => {
    const r = await t.call('POST', UTR, request('disk'), { token: tokens.looker });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe(`uploadtokenrequests.upload.cdi.kubevirt.io is forbidden: User "system:serviceaccount:${NS}:looker" cannot create resource "uploadtokenrequests" in API group "upload.cdi.kubevirt.io" in the namespace "${NS}"`);
  });

  it('refuses a request naming no PVC (422) and other verbs (405)', async () => {
    const r = await t.call('POST', UTR, request());
    expect(r.status).toBe(422);
    expect(r.body.message).toContain('spec.pvcName: Required value');
    expect((await t.call('GET', UTR)).status).toBe(405);
  });

  it('kubectl creates one from a manifest and prints the token (the docs\' recipe); api-resources lists utr', async () => {
    const k = kubectlWithToken(t.srv, tokens.uploader!);
    try {
      const file = join(mkdtempSync(join(tmpdir(), 'kv-utr-')), 'utr.yaml');
      writeFileSync(file, `apiVersion: upload.cdi.kubevirt.io/v1beta1\nkind: UploadTokenRequest\nmetadata: {name: token-for-virtctl, namespace: ${NS}}\nspec: {pvcName: my-dv}\n`);
      const r = await k.run('create', '-f', file, '-o', 'jsonpath={.status.token}');
      expect(r.err).toBe('');
      expect(r.out.split('.')).toHaveLength(3);
      const res = await k.run('api-resources', '--api-group', 'upload.cdi.kubevirt.io', '--no-headers');
      expect(res.out.trim().split(/\s+/)).toEqual(['uploadtokenrequests', 'utr,utrs', 'upload.cdi.kubevirt.io/v1beta1', 'true', 'UploadTokenRequest']);
    } finally {
      k.dispose();
    }
  });

  it('is in discovery as CDI lists it (create only, short names utr, utrs)', async () => {
    const r = await t.call('GET', '/apis/upload.cdi.kubevirt.io/v1beta1');
    expect(r.status).toBe(200);
    expect(r.body.resources).toEqual([expect.objectContaining({ name: 'uploadtokenrequests', kind: 'UploadTokenRequest', namespaced: true, verbs: ['create'], shortNames: ['utr', 'utrs'] })]);
  });
});
