/**
 * POST upload.cdi.kubevirt.io/v1beta1 namespaces/NS/uploadtokenrequests (CDI's UploadTokenRequest,
 * create only): the request back with status.token, a signed 5-minute token for an upload into the
 * PVC spec.pvcName of NS. As CDI's cdi-apiserver, the PVC need not exist yet (the upload proxy
 * checks it when the bytes arrive); the right to ask is RBAC's `create uploadtokenrequests`. Ours:
 * a request naming no PVC is refused (422) rather than given a token nothing accepts.
 */
import type { ResourceRequest } from '../handler-context';
import { parseBody, readBody, sendJson } from '../codec/http-io';
import { badRequest, invalid } from '../status-error';
import { signUploadToken } from '../../../kube/upload-token';

const KIND = { group: 'upload.cdi.kubevirt.io', kind: 'UploadTokenRequest' };

export async function handleUploadTokenRequest(r: ResourceRequest): Promise<void> {
  const key = r.ctx.uploadTokenKey;
  if (!key) throw badRequest('this API server issues no upload tokens');
  const raw = await readBody(r.req);
  const body = (raw.length ? parseBody(raw, r.req.headers['content-type']) : {}) as { metadata?: Record<string, unknown>; spec?: { pvcName?: unknown } } | null;
  const pvcName = body?.spec?.pvcName;
  const name = typeof body?.metadata?.name === 'string' ? body.metadata.name : '';
  if (typeof pvcName !== 'string' || !pvcName) throw invalid(KIND, name, [{ reason: 'FieldValueRequired', field: 'spec.pvcName', message: 'Required value' }]);
  const namespace = r.info.namespace!;
  const { token, claims } = signUploadToken(key, { namespace, pvcName });
  // 200, as CDI's cdi-apiserver answers (nothing is created)
  sendJson(r.res, 200, {
    kind: 'UploadTokenRequest', apiVersion: `${r.rt.group}/${r.rt.version}`,
    metadata: { ...(body?.metadata ?? {}), namespace, creationTimestamp: new Date(claims.iat * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') },
    spec: { pvcName },
    status: { token },
  });
}
