/**
 * Authenticates ServiceAccount tokens (TokenRequest's JWTs) as kube-apiserver does: a valid
 * signature of ours, not expired, meant for this audience, and still bound: the ServiceAccount with
 * the same uid exists, and so does the bound Pod or Secret (same uid, not being deleted). Deleting
 * any of them ends its tokens at once.
 */
import { GROUP_AUTHENTICATED, type UserInfo } from './authz';
import { objectKey } from './rest/codec/object-codec';
import type { ApiContext } from './rest/api-context';
import { SA_TOKEN_ISSUER, type BoundRef, type TokenSigner } from './sa-token-signer';

export const serviceAccountUsername = (namespace: string, name: string) => `system:serviceaccount:${namespace}:${name}`;
export const serviceAccountGroups = (namespace: string) => ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, GROUP_AUTHENTICATED];

/** metadata of a live core object (undefined when gone) */
export function coreObjectMeta(ctx: ApiContext, resource: string, namespace: string, name: string): { uid?: string; deletionTimestamp?: string } | undefined {
  const kv = ctx.store.get(objectKey({ group: '', resource, namespaced: true }, namespace, name));
  if (!kv) return undefined;
  try {
    return (JSON.parse(kv.value) as { metadata?: { uid?: string; deletionTimestamp?: string } }).metadata ?? {};
  } catch {
    return undefined;
  }
}

function stillBound(ctx: ApiContext, resource: string, namespace: string, ref: BoundRef | undefined, allowDeleting: boolean): boolean {
  if (!ref) return true;
  const meta = coreObjectMeta(ctx, resource, namespace, ref.name);
  return !!meta && meta.uid === ref.uid && (allowDeleting || !meta.deletionTimestamp);
}

export type BoundTokenAuthenticator = (token: string, audiences?: string[]) => UserInfo | undefined;

export function serviceAccountTokenAuthenticator(ctx: ApiContext, signer: TokenSigner, now: () => number = Date.now): BoundTokenAuthenticator {
  return (token, audiences = [SA_TOKEN_ISSUER]) => {
    const claims = signer.verify(token);
    if (!claims) return undefined;
    const seconds = now() / 1000;
    if (seconds >= claims.exp || seconds + 60 < claims.nbf) return undefined;
    if (!claims.aud.some((a) => audiences.includes(a))) return undefined;
    const k = claims['kubernetes.io'];
    if (!stillBound(ctx, 'serviceaccounts', k.namespace, k.serviceaccount, false)) return undefined;
    if (!stillBound(ctx, 'pods', k.namespace, k.pod, false) || !stillBound(ctx, 'secrets', k.namespace, k.secret, false)) return undefined;
    return { username: serviceAccountUsername(k.namespace, k.serviceaccount.name), groups: serviceAccountGroups(k.namespace) };
  };
}
