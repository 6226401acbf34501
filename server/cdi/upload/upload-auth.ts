/**
 * Who may upload where. As CDI's upload proxy: the bearer token is an upload token from an
 * UploadTokenRequest, which alone names the PVC (no query needed); a forged or expired one is 401,
 * a validly signed one naming no PVC upload is 400, no bearer token at all is 400. Kept for
 * compatibility (ours): the caller's own bearer token with `?namespace=&name=`, allowed when it may
 * `update` that DataVolume (TokenReview + SubjectAccessReview, never cached).
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { bearerToken, DelegatedAuth } from '../../kube/delegated-auth';
import { messageOf } from '../../kube/api-errors';
import { UPLOAD_TOKEN_KEY_CONFIGMAP, verifyUploadToken } from '../../kube/upload-token';

export type UploadAuth = { ok: true; namespace: string; name: string } | { ok: false; code: number; message: string };

export interface UploadAuthorizer { authorize(authorization: string | undefined, query: URLSearchParams): Promise<UploadAuth> }

/** `loadKey` gives the API server's verifying key (re-read when a token fails, so a new key is picked up) */
export function uploadAuthorizer(kc: KubeConfig, loadKey: () => Promise<KeyObject | undefined> = publishedKey(kc)): UploadAuthorizer {
  const auth = new DelegatedAuth(kc, { allowTtlMs: 0, denyTtlMs: 0 });
  let key: KeyObject | undefined;
  let reloadedAt = 0;
  const check = async (token: string) => {
    key ??= await loadKey();
    if (!key) return undefined;
    const got = verifyUploadToken(key, token);
    if (got.ok || got.reason !== 'invalid') return got;
    // a key the API server made anew is re-read, at most every 10 s (forged tokens cannot make us hammer it)
    if (Date.now() - reloadedAt < 10_000) return got;
    reloadedAt = Date.now();
    key = (await loadKey()) ?? key;
    return verifyUploadToken(key, token);
  };
  return {
    async authorize(authorization, query) {
      const token = bearerToken(authorization);
      if (!token) return { ok: false, code: 400, message: 'missing bearer token: ask for one with an UploadTokenRequest' };
      const namespace = query.get('namespace') ?? '';
      const name = query.get('name') ?? '';
      let got;
      try {
        got = await check(token);
      } catch (err) {
        return { ok: false, code: 503, message: messageOf(err) };
      }
      if (got?.ok) {
        const { namespace: ns, name: pvc } = got.claims;
        if ((namespace && namespace !== ns) || (name && name !== pvc)) return { ok: false, code: 401, message: `the upload token is for PVC ${ns}/${pvc}, not ${namespace || ns}/${name || pvc}` };
        return { ok: true, namespace: ns, name: pvc };
      }
      if (got?.reason === 'expired') return { ok: false, code: 401, message: 'the upload token has expired: ask for a new one with an UploadTokenRequest' };
      if (got?.reason === 'bad-claims') return { ok: false, code: 400, message: 'the upload token names no PVC upload' };
      // not an upload token: the caller's own token, naming the DataVolume in the query (ours)
      if (!namespace || !name) return { ok: false, code: 401, message: 'invalid upload token' };
      const review = await auth.review(token, { group: 'cdi.kubevirt.io', resource: 'datavolumes', verb: 'update', namespace, name });
      if (!review.allowed) return { ok: false, code: review.code, message: review.code === 401 ? 'invalid token' : `User "${review.username}" cannot upload to datavolume ${namespace}/${name}` };
      return { ok: true, namespace, name };
    },
  };
}

/** the key the API server publishes (ConfigMap kube-system/cdi-api-signing-key), or undefined while it is not there */
function publishedKey(kc: KubeConfig): () => Promise<KeyObject | undefined> {
  const core = kc.makeApiClient(CoreV1Api);
  const { namespace, name, key } = UPLOAD_TOKEN_KEY_CONFIGMAP;
  return async () => {
    try {
      const pem = (await core.readNamespacedConfigMap({ namespace, name })).data?.[key];
      return pem ? createPublicKey(pem) : undefined;
    } catch (err) {
      throw new Error(`cannot read the upload token key (ConfigMap ${namespace}/${name}): ${messageOf(err)}`, { cause: err });
    }
  };
}
