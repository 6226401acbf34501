import { log } from '../../log';
import type { FailureStatus, ReviewInput } from './admission-review';
import { callWebhook, type CallOutcome } from './webhook-call';
import { webhookApplies, type AdmissionAttributes, type AdmittedObject, type Webhook, type WebhookConfiguration } from './webhook-rules';

export { setServiceResolver, resolveService, defaultServiceResolver, resolveServiceTarget } from './service-resolver';
export { webhookApplies, ruleMatches } from './webhook-rules';

const logger = log.child({ component: 'admission' });

/** What a request carries into admission: its attributes (webhook-rules.ts) plus who asks and the webhooks to call. */
export interface AdmissionInput extends AdmissionAttributes {
  name?: string;
  user: { username: string; groups: string[] };
  dryRun: boolean;
  /** MutatingWebhookConfiguration objects */
  mutating: WebhookConfiguration[];
  /** ValidatingWebhookConfiguration objects */
  validating: WebhookConfiguration[];
}

export type AdmissionResult =
  | { allowed: true; object?: AdmittedObject; warnings: string[] }
  | { allowed: false; status: FailureStatus };

/**
 * kube-apiserver's webhook admission: mutating webhooks one after another (configurations by
 * name, webhooks in listed order), each seeing the object as mutated so far; then validating
 * webhooks in parallel. A denial → the webhook's Status (`admission webhook "<name>" denied the
 * request: <message>`); a call failure → 500 unless failurePolicy is Ignore.
 */
export async function runAdmission(input: AdmissionInput): Promise<AdmissionResult> {
  const warnings: string[] = [];
  let object = input.object;
  for (const webhook of orderedWebhooks(input.mutating)) {
    const attrs: ReviewInput = { ...input, object };
    if (!webhookApplies(webhook, attrs)) continue;
    const outcome = await callWebhook(webhook, attrs, true);
    const verdict = judge(webhook, outcome, warnings);
    if (verdict) return verdict;
    if (outcome.kind === 'allowed' && outcome.object !== undefined) object = outcome.object;
  }
  const attrs: ReviewInput = { ...input, object };
  const validating = orderedWebhooks(input.validating).filter((w) => webhookApplies(w, attrs));
  const outcomes = await Promise.all(validating.map((w) => callWebhook(w, attrs, false)));
  for (let i = 0; i < validating.length; i++) {
    const verdict = judge(validating[i], outcomes[i], warnings);
    if (verdict) return verdict;
  }
  return { allowed: true, object, warnings };
}

/** undefined = carry on; otherwise the request's final answer. */
function judge(webhook: Webhook, outcome: CallOutcome, warnings: string[]): AdmissionResult | undefined {
  if (outcome.kind === 'allowed') {
    warnings.push(...outcome.warnings);
    return undefined;
  }
  if (outcome.kind === 'failed' && webhook.failurePolicy === 'Ignore') {
    logger.warn({ webhook: webhook.name, message: outcome.status.message }, 'webhook call failed, ignored');
    return undefined;
  }
  logger.debug({ webhook: webhook.name, code: outcome.status.code }, 'admission rejected');
  return { allowed: false, status: outcome.status };
}

/** Webhooks of all configurations: configurations sorted by name, webhooks in their listed order. */
function orderedWebhooks(configs: WebhookConfiguration[]): Webhook[] {
  return [...(configs ?? [])]
    .sort((a, b) => String(a?.metadata?.name ?? '').localeCompare(String(b?.metadata?.name ?? '')))
    .flatMap((c) => c?.webhooks ?? []);
}
