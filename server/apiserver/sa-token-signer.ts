/**
 * Signs and verifies ServiceAccount tokens (TokenRequest): RS256 JWTs under a key pair kept beside
 * the CA in DIR/apiserver/pki (sa.key 0600, sa.pub), made once, so tokens outlive a restart.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** the issuer and the API server's own audience (kube-apiserver's default: its in-cluster URL) */
export const SA_TOKEN_ISSUER = 'https://kubernetes.default.svc.cluster.local';

export interface BoundRef { name: string; uid: string }
export interface ServiceAccountClaims {
  iss: string;
  sub: string;
  aud: string[];
  exp: number;
  iat: number;
  nbf: number;
  jti: string;
  'kubernetes.io': { namespace: string; serviceaccount: BoundRef; pod?: BoundRef; secret?: BoundRef };
}

export interface TokenSigner {
  sign(claims: ServiceAccountClaims): string;
  /** the claims of a token this server signed, or undefined (not ours, tampered, not a JWT); expiry is the caller's check */
  verify(token: string): ServiceAccountClaims | undefined;
}

const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');

export function tokenSigner(privateKey: KeyObject, publicKey: KeyObject = createPublicKey(privateKey)): TokenSigner {
  const kid = publicKey.export({ format: 'jwk' }).n!.slice(0, 16);
  return {
    sign(claims) {
      const input = `${b64({ alg: 'RS256', kid })}.${b64(claims)}`;
      return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
    },
    verify(token) {
      const parts = token.split('.');
      if (parts.length !== 3) return undefined;
      try {
        const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as { alg?: string };
        if (header.alg !== 'RS256') return undefined;
        if (!verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2]!, 'base64url'))) return undefined;
        const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as ServiceAccountClaims;
        return claims?.['kubernetes.io']?.serviceaccount && typeof claims.exp === 'number' ? claims : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** The signer of DIR/apiserver/pki, making its key pair on first use. */
export function ensureTokenSigner(pkiDir: string): TokenSigner {
  const keyFile = join(pkiDir, 'sa.key');
  if (!existsSync(keyFile)) {
    mkdirSync(pkiDir, { recursive: true, mode: 0o700 });
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    writeFileSync(join(pkiDir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644 });
  }
  return tokenSigner(createPrivateKey(readFileSync(keyFile)));
}
