/**
 * CDI's upload token: an RS256 JWT the API server signs when a user creates an UploadTokenRequest
 * and the upload proxy verifies with the public key alone. It names the operation (Upload), the
 * namespace and the PVC, and lives 5 minutes (CDI's lifetime), checked with CDI's 10 s leeway.
 * Shared by the API server (signing) and the upload proxy (verifying), so both agree on the format.
 */
import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export const UPLOAD_TOKEN_ISSUER = 'cdi-apiserver';
export const UPLOAD_TOKEN_LIFETIME_SECONDS = 5 * 60;
export const UPLOAD_TOKEN_LEEWAY_SECONDS = 10;
export const OPERATION_UPLOAD = 'Upload';

/** where the API server publishes the verifying key (ConfigMap in kube-system, key `id_rsa.pub`) */
export const UPLOAD_TOKEN_KEY_CONFIGMAP = { namespace: 'kube-system', name: 'cdi-api-signing-key', key: 'id_rsa.pub' };

export interface UploadTokenClaims {
  iss: string;
  iat: number;
  nbf: number;
  exp: number;
  operation: string;
  name: string;
  namespace: string;
  resource: { group: string; version: string; resource: string };
}

const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** a token for an upload into PVC namespace/pvcName, valid from `nowSeconds` for the lifetime */
export function signUploadToken(privateKey: KeyObject, target: { namespace: string; pvcName: string }, nowSeconds = Math.floor(Date.now() / 1000)): { token: string; claims: UploadTokenClaims } {
  const claims: UploadTokenClaims = {
    iss: UPLOAD_TOKEN_ISSUER, iat: nowSeconds, nbf: nowSeconds, exp: nowSeconds + UPLOAD_TOKEN_LIFETIME_SECONDS,
    operation: OPERATION_UPLOAD, name: target.pvcName, namespace: target.namespace,
    resource: { group: '', version: 'v1', resource: 'persistentvolumeclaims' },
  };
  const kid = createPublicKey(privateKey).export({ format: 'jwk' }).n!.slice(0, 16);
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64(claims)}`;
  return { token: `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`, claims };
}

export type UploadTokenCheck =
  | { ok: true; claims: UploadTokenClaims }
  /** `invalid`: not ours, tampered or malformed; `expired`: outside its validity (with leeway); `bad-claims`: a valid signature over claims that name no PVC upload */
  | { ok: false; reason: 'invalid' | 'expired' | 'bad-claims' };

function decode(part: string): unknown {
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}

/** checks signature, issuer, validity window and claims as CDI's upload proxy does */
export function verifyUploadToken(publicKey: KeyObject, token: string, nowSeconds = Math.floor(Date.now() / 1000)): UploadTokenCheck {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'invalid' };
  let claims: Partial<UploadTokenClaims>;
  try {
    const header = decode(parts[0]!) as { alg?: unknown };
    if (header?.alg !== 'RS256') return { ok: false, reason: 'invalid' };
    if (!verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2]!, 'base64url'))) return { ok: false, reason: 'invalid' };
    claims = decode(parts[1]!) as Partial<UploadTokenClaims>;
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (!claims || typeof claims !== 'object' || claims.iss !== UPLOAD_TOKEN_ISSUER) return { ok: false, reason: 'invalid' };
  if (typeof claims.exp !== 'number' || nowSeconds > claims.exp + UPLOAD_TOKEN_LEEWAY_SECONDS) return { ok: false, reason: 'expired' };
  if (typeof claims.nbf === 'number' && nowSeconds < claims.nbf - UPLOAD_TOKEN_LEEWAY_SECONDS) return { ok: false, reason: 'expired' };
  if (claims.operation !== OPERATION_UPLOAD || !claims.name || !claims.namespace || claims.resource?.resource !== 'persistentvolumeclaims') return { ok: false, reason: 'bad-claims' };
  return { ok: true, claims: claims as UploadTokenClaims };
}
