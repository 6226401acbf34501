import { generateKeyPairSync } from 'node:crypto';
import { makeKubeConfig } from '../../kube/kubeconfig';
import { describe, expect, it } from 'vitest';
import { signUploadToken } from '../../kube/upload-token';
import { uploadAuthorizer } from './upload-auth';

const first = generateKeyPairSync('rsa', { modulusLength: 2048 });
const second = generateKeyPairSync('rsa', { modulusLength: 2048 });
const kc = makeKubeConfig({ server: 'https://127.0.0.1:1', token: 'unused' }); // never dialled: these paths need no review
const none = new URLSearchParams();
const bearer = (t: string) => `Bearer ${t}`;

describe('upload authorizer (upload tokens)', () => {
  it('takes a token alone and answers with the PVC it names', async () => {
    const auth = uploadAuthorizer(kc, async () => first.publicKey);
    const { token } = signUploadToken(first.privateKey, { namespace: 'ns', pvcName: 'disk' });
    expect(await auth.authorize(bearer(token), none)).toEqual({ ok: true, namespace: 'ns', name: 'disk' });
    expect(await auth.authorize(bearer(token), new URLSearchParams({ namespace: 'ns', name: 'disk' }))).toEqual({ ok: true, namespace: 'ns', name: 'disk' });
  });

  it('refuses no token (400), another PVC in the query (401), an expired token (401) and garbage without a query (401)', async () => {
    const auth = uploadAuthorizer(kc, async () => first.publicKey);
    const { token } = signUploadToken(first.privateKey, { namespace: 'ns', pvcName: 'disk' });
    expect(await auth.authorize(undefined, none)).toMatchObject({ ok: false, code: 400 });
    expect(await auth.authorize(bearer(token), new URLSearchParams({ namespace: 'ns', name: 'other' }))).toEqual({ ok: false, code: 401, message: 'the upload token is for PVC ns/disk, not ns/other' });
    const old = signUploadToken(first.privateKey, { namespace: 'ns', pvcName: 'disk' }, Math.floor(Date.now() / 1000) - 600).token;
    expect(await auth.authorize(bearer(old), none)).toMatchObject({ ok: false, code: 401, message: expect.stringContaining('expired') });
    expect(await auth.authorize(bearer('garbage'), none)).toEqual({ ok: false, code: 401, message: 'invalid upload token' });
  });

  it('says so (503) when the verifying key cannot be read', async () => {
    const auth = uploadAuthorizer(kc, async () => { throw new Error('cannot read the upload token key (ConfigMap kube-system/cdi-api-signing-key): forbidden'); });
    expect(await auth.authorize(bearer('x.y.z'), none)).toEqual({ ok: false, code: 503, message: 'cannot read the upload token key (ConfigMap kube-system/cdi-api-signing-key): forbidden' });
  });

  it('re-reads the key once when a token does not verify (a new key is picked up), at most every 10 s', async () => {
    let current = first.publicKey;
    let reads = 0;
    const auth = uploadAuthorizer(kc, async () => { reads++; return current; });
    expect((await auth.authorize(bearer(signUploadToken(first.privateKey, { namespace: 'ns', pvcName: 'a' }).token), none)).ok).toBe(true);
    current = second.publicKey;
    expect(await auth.authorize(bearer(signUploadToken(second.privateKey, { namespace: 'ns', pvcName: 'b' }).token), none)).toEqual({ ok: true, namespace: 'ns', name: 'b' });
    expect(reads).toBe(2);
    for (let i = 0; i < 5; i++) await auth.authorize(bearer(signUploadToken(first.privateKey, { namespace: 'ns', pvcName: 'c' }).token), none);
    expect(reads).toBe(2);
  });
});
