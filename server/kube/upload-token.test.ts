import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signUploadToken, verifyUploadToken, UPLOAD_TOKEN_LIFETIME_SECONDS } from './upload-token';

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const NOW = 1_800_000_000;

describe('upload token', () => {
  it('names the namespace, the PVC and the Upload operation, and verifies with the public key', () => {
    const { token } = signUploadToken(keys.privateKey, { namespace: 'ns1', pvcName: 'disk' }, NOW);
    const got = verifyUploadToken(keys.publicKey, token, NOW + 1);
    expect(got).toMatchObject({ ok: true, claims: { namespace: 'ns1', name: 'disk', operation: 'Upload', resource: { resource: 'persistentvolumeclaims' } } });
  });

  it('lives 5 minutes, with a 10 s leeway', () => {
    const { token, claims } = signUploadToken(keys.privateKey, { namespace: 'ns1', pvcName: 'disk' }, NOW);
    expect(claims.exp - claims.iat).toBe(UPLOAD_TOKEN_LIFETIME_SECONDS);
    expect(verifyUploadToken(keys.publicKey, token, NOW + 300 + 10).ok).toBe(true);
    expect(verifyUploadToken(keys.publicKey, token, NOW + 300 + 11)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyUploadToken(keys.publicKey, token, NOW - 11)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token signed by another key, a tampered payload and garbage', () => {
    const forged = signUploadToken(other.privateKey, { namespace: 'ns1', pvcName: 'disk' }, NOW).token;
    expect(verifyUploadToken(keys.publicKey, forged, NOW)).toEqual({ ok: false, reason: 'invalid' });
    const [h, , s] = signUploadToken(keys.privateKey, { namespace: 'ns1', pvcName: 'disk' }, NOW).token.split('.');
    const evil = Buffer.from(JSON.stringify({ iss: 'cdi-apiserver', exp: NOW + 999, operation: 'Upload', name: 'other', namespace: 'ns1', resource: { resource: 'persistentvolumeclaims' } })).toString('base64url');
    expect(verifyUploadToken(keys.publicKey, `${h}.${evil}.${s}`, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyUploadToken(keys.publicKey, 'not-a-jwt', NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyUploadToken(keys.publicKey, 'a.b.c', NOW)).toEqual({ ok: false, reason: 'invalid' });
  });
});
