import { applyJsonPatch } from '../patch';
import { buildAdmissionReview, denialStatus, readAdmissionResponse, type AdmissionResponse, type FailureStatus, type ReviewInput } from './admission-review';
import type { AdmittedObject, Webhook } from './webhook-rules';
import { DEFAULT_TIMEOUT_SECONDS, WebhookCallError, postAdmissionReview } from './webhook-client';

const SIDE_EFFECTS_SAFE_FOR_DRY_RUN = new Set(['None', 'NoneOnDryRun']);

export type CallOutcome =
  | { kind: 'allowed'; warnings: string[]; object?: AdmittedObject }
  | { kind: 'denied'; status: FailureStatus }
  /** the webhook could not be called or answered nonsense: failurePolicy decides */
  | { kind: 'failed'; status: FailureStatus };

/** Calls one webhook and interprets its answer; `mutate` applies a returned JSONPatch to `input.object`. */
export async function callWebhook(webhook: Webhook, input: ReviewInput, mutate: boolean): Promise<CallOutcome> {
  if (input.dryRun && !SIDE_EFFECTS_SAFE_FOR_DRY_RUN.has(webhook.sideEffects as string)) {
    return { kind: 'denied', status: statusOf(400, 'BadRequest', `admission webhook "${webhook.name}" does not support dry run`) };
  }
  const { review, uid, apiVersion } = buildAdmissionReview(webhook, input);
  let response: AdmissionResponse;
  try {
    const reply = await postAdmissionReview(webhook.clientConfig, review, webhook.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS);
    response = readAdmissionResponse(reply, uid, apiVersion);
  } catch (e) {
    const why = e instanceof WebhookCallError ? `failed to call webhook: ${e.message}` : `received invalid webhook response: ${(e as Error).message}`;
    return { kind: 'failed', status: internalError(`failed calling webhook "${webhook.name}": ${why}`) };
  }
  const warnings: string[] = Array.isArray(response.warnings) ? response.warnings.map(String) : [];
  if (!response.allowed) return { kind: 'denied', status: denialStatus(webhook.name, response.status) };
  if (!mutate || !response.patch || input.object === undefined) return { kind: 'allowed', warnings };
  try {
    return { kind: 'allowed', warnings, object: applyReturnedPatch(input.object, response) };
  } catch (e) {
    return { kind: 'failed', status: internalError(`failed calling webhook "${webhook.name}": ${(e as Error).message}`) };
  }
}

function applyReturnedPatch(object: AdmittedObject, response: AdmissionResponse): AdmittedObject {
  if (response.patchType !== 'JSONPatch') throw new Error(`unsupported patch type "${response.patchType ?? ''}"`);
  const ops = JSON.parse(Buffer.from(String(response.patch), 'base64').toString('utf8'));
  try {
    return applyJsonPatch(object, ops);
  } catch (e) {
    throw new Error(`failed to apply patch: ${(e as { detail?: string }).detail ?? (e as Error).message}`, { cause: e });
  }
}

export const statusOf = (code: number, reason: string, message: string, details?: Record<string, unknown>): FailureStatus => ({
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code,
});

const internalError = (message: string) =>
  statusOf(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
