import { randomUUID } from 'node:crypto';
import type { AdmissionAttributes, Webhook } from './webhook-rules';

export interface ReviewInput extends AdmissionAttributes {
  name?: string;
  user: { username: string; groups: string[] };
  dryRun: boolean;
}

/** the `status` a webhook may put in its response (a metav1.Status) */
export interface WebhookStatusResult {
  message?: string;
  reason?: string;
  details?: Record<string, unknown>;
  code?: unknown;
}

/** admission.k8s.io AdmissionResponse, as a webhook sends it */
export interface AdmissionResponse {
  uid?: string;
  allowed?: boolean;
  status?: WebhookStatusResult;
  patch?: string;
  patchType?: string;
  warnings?: unknown;
}

/** the metav1.Status a client gets for a webhook's denial or failure */
export interface FailureStatus {
  kind: string;
  apiVersion: string;
  metadata: object;
  status: string;
  message: string;
  reason?: string;
  details?: Record<string, unknown>;
  code: number;
}

/** The admission.k8s.io AdmissionReview kube-apiserver sends (v1, or v1beta1 if that is all the webhook takes). */
export function buildAdmissionReview(webhook: Webhook, input: ReviewInput): { review: object; uid: string; apiVersion: string } {
  const versions: string[] = webhook.admissionReviewVersions ?? ['v1'];
  const apiVersion = versions.includes('v1') ? 'admission.k8s.io/v1' : 'admission.k8s.io/v1beta1';
  const uid = randomUUID();
  const kind = { group: input.rt.group, version: input.rt.version, kind: input.rt.kind };
  const resource = { group: input.rt.group, version: input.rt.version, resource: input.rt.resource };
  const request = {
    uid,
    kind,
    resource,
    ...(input.subResource ? { subResource: input.subResource, requestSubResource: input.subResource } : {}),
    requestKind: kind,
    requestResource: resource,
    name: input.name ?? input.object?.metadata?.name ?? input.oldObject?.metadata?.name ?? '',
    ...(input.namespace ? { namespace: input.namespace } : {}),
    operation: input.operation,
    userInfo: { username: input.user.username, groups: input.user.groups },
    object: input.operation === 'DELETE' ? null : input.object ?? null,
    oldObject: input.operation === 'CREATE' || input.operation === 'CONNECT' ? null : input.oldObject ?? null,
    dryRun: input.dryRun,
    options: optionsFor(input.operation, input.dryRun),
  };
  return { review: { apiVersion, kind: 'AdmissionReview', request }, uid, apiVersion };
}

function optionsFor(operation: string, dryRun: boolean): object | null {
  const dry = dryRun ? { dryRun: ['All'] } : {};
  switch (operation) {
    case 'CREATE': return { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions', ...dry };
    case 'UPDATE': return { apiVersion: 'meta.k8s.io/v1', kind: 'UpdateOptions', ...dry };
    case 'DELETE': return { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', ...dry };
    default: return null;
  }
}

/** The `response` of a reply, checked the way kube checks it (kind, apiVersion, uid). */
export function readAdmissionResponse(body: unknown, uid: string, apiVersion: string): AdmissionResponse {
  const reply = body as { kind?: unknown; apiVersion?: unknown; response?: AdmissionResponse } | null | undefined;
  if (reply?.kind !== 'AdmissionReview') throw new Error(`expected webhook response of kind AdmissionReview, got ${JSON.stringify(reply?.kind ?? '')}`);
  if (reply.apiVersion !== apiVersion) throw new Error(`expected webhook response of ${apiVersion}, got ${reply.apiVersion}`);
  const response = reply.response;
  if (!response) throw new Error('webhook response was absent');
  if (response.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${response.uid}"`);
  return response;
}

/** kube's ToStatusErr: the Status a client sees when a webhook says no. */
export function denialStatus(webhookName: string, result: WebhookStatusResult | undefined): FailureStatus {
  const s: WebhookStatusResult = result ?? {};
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const message = s.message ? `${deniedBy}: ${s.message}` : s.reason ? `${deniedBy}: ${s.reason}` : `${deniedBy} without explanation`;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    ...(s.reason ? { reason: s.reason } : {}),
    ...(s.details ? { details: s.details } : {}),
    code: typeof s.code === 'number' && s.code >= 400 ? s.code : 400,
  };
}
