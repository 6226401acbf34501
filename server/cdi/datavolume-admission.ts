/**
 * CDI's DataVolume webhook, the part that matters for clones: a DataVolume created with a PVC or
 * snapshot source in another namespace is allowed only when the creating user may clone from
 * there (server/kube/clone-authorization.ts, asked with the user the API server names in the
 * AdmissionReview). Denied: 403 with CDI's message. Everything else is allowed (the controller's
 * own checks report the rest on the DataVolume). Ours: a `sourceRef` to a DataSource in another
 * namespace is not checked here.
 */
import { authorizeClone, cloneSourceOf, type AccessReview } from '../kube/clone-authorization';
import type { DataVolume } from './datavolume-types';

export const DATAVOLUME_WEBHOOK_PATH = '/datavolume-validate';
export const DATAVOLUME_WEBHOOK_NAME = 'datavolume-validate.cdi.kubevirt.io';

interface ReviewRequest {
  uid?: string;
  operation?: string;
  namespace?: string;
  userInfo?: { username?: string; groups?: string[]; uid?: string; extra?: Record<string, string[]> };
  object?: Partial<DataVolume> | null;
}

export interface AdmissionReply {
  apiVersion: string;
  kind: 'AdmissionReview';
  response: { uid: string; allowed: boolean; status?: { code: number; reason: string; message: string } };
}

/** the reply to one AdmissionReview (a malformed one is answered with a denial naming the problem) */
export async function admitDataVolume(body: unknown, review: AccessReview): Promise<AdmissionReply> {
  const { apiVersion, request } = (body ?? {}) as { apiVersion?: string; request?: ReviewRequest };
  const reply = (allowed: boolean, status?: AdmissionReply['response']['status']): AdmissionReply =>
    ({ apiVersion: apiVersion ?? 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: request?.uid ?? '', allowed, ...(status ? { status } : {}) } });
  if (!request?.uid) return reply(false, { code: 400, reason: 'BadRequest', message: 'AdmissionReview has no request' });
  if (request.operation !== 'CREATE') return reply(true);
  const dv = request.object;
  const namespace = dv?.metadata?.namespace || request.namespace || '';
  const source = cloneSourceOf(dv?.spec?.source, namespace);
  if (!source || source.namespace === namespace) return reply(true);
  const user = request.userInfo?.username ?? '';
  const got = await authorizeClone(review, { user, groups: request.userInfo?.groups, uid: request.userInfo?.uid, extra: request.userInfo?.extra }, source, namespace);
  return got.allowed ? reply(true) : reply(false, { code: 403, reason: 'Forbidden', message: got.reason });
}

/** the ValidatingWebhookConfiguration that sends DataVolume creates to `url` (CDI's is served by cdi-apiserver) */
export function dataVolumeWebhookConfiguration(url: string) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'cdi-api-datavolume-validate' },
    webhooks: [{
      name: DATAVOLUME_WEBHOOK_NAME,
      clientConfig: { url: `${url}${DATAVOLUME_WEBHOOK_PATH}` },
      rules: [{ apiGroups: ['cdi.kubevirt.io'], apiVersions: ['v1beta1'], operations: ['CREATE'], resources: ['datavolumes'], scope: '*' }],
      failurePolicy: 'Fail', sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 10,
    }],
  };
}
