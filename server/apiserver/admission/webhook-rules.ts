import { labelSelectorFromObject, matchLabels } from '../selectors';
import type { LabelSelectorObject } from '../selectors/label-selector-object';

export interface AdmissionAttributes {
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  rt: { group: string; version: string; resource: string; kind: string };
  subResource?: string;
  object?: AdmittedObject;
  oldObject?: AdmittedObject;
  namespace?: string;
  namespaceLabels?: Record<string, string>;
}

/** the object under admission: any JSON object; admission reads its name and labels */
export interface AdmittedObject {
  metadata?: { name?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** admissionregistration.k8s.io/v1 RuleWithOperations */
export interface WebhookRule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

/** admissionregistration.k8s.io/v1 WebhookClientConfig */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace?: string; name?: string; path?: string; port?: number };
  caBundle?: string;
}

/** one webhook of a Mutating/ValidatingWebhookConfiguration, the fields we act on */
export interface Webhook {
  name: string;
  clientConfig?: WebhookClientConfig;
  rules?: WebhookRule[];
  namespaceSelector?: LabelSelectorObject | null;
  objectSelector?: LabelSelectorObject | null;
  failurePolicy?: string;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
}

/** a Mutating/ValidatingWebhookConfiguration */
export interface WebhookConfiguration {
  metadata?: { name?: string };
  webhooks?: Webhook[];
}

/**
 * Does this webhook (an entry of a Mutating/ValidatingWebhookConfiguration) apply to the request?
 * Rules (operations, apiGroups, apiVersions, resources with subresources, scope), namespaceSelector
 * and objectSelector, as kube-apiserver evaluates them.
 */
export function webhookApplies(webhook: Webhook, a: AdmissionAttributes): boolean {
  const rules: WebhookRule[] = webhook.rules ?? [];
  if (!rules.some((r) => ruleMatches(r, a))) return false;
  return namespaceMatches(webhook.namespaceSelector, a) && objectMatches(webhook.objectSelector, a);
}

export function ruleMatches(rule: WebhookRule, a: AdmissionAttributes): boolean {
  const has = (list: string[] | undefined, v: string) => (list ?? []).some((x) => x === '*' || x === v);
  if (!has(rule.operations, a.operation)) return false;
  if (!has(rule.apiGroups, a.rt.group) || !has(rule.apiVersions, a.rt.version)) return false;
  if (!(rule.resources ?? []).some((r) => resourceMatches(r, a.rt.resource, a.subResource ?? ''))) return false;
  const scope = rule.scope ?? '*';
  const namespaced = a.namespace !== undefined && a.namespace !== '';
  return scope === '*' || (scope === 'Namespaced' ? namespaced : !namespaced);
}

/** "pods", "pods/status", "pods/*", "*", "*\/status", "*\/*". */
function resourceMatches(pattern: string, resource: string, sub: string): boolean {
  const [res, patternSub] = pattern.split('/', 2);
  if (res !== '*' && res !== resource) return false;
  if (patternSub === undefined) return sub === '';
  return patternSub === '*' || patternSub === sub;
}

function namespaceMatches(selector: LabelSelectorObject | null | undefined, a: AdmissionAttributes): boolean {
  if (!selector || isEmptySelector(selector)) return true;
  if (a.rt.resource === 'namespaces' && a.rt.group === '') {
    return matchLabels(labelSelectorFromObject(selector), (a.object ?? a.oldObject)?.metadata?.labels);
  }
  if (!a.namespace) return true; // cluster-scoped objects are not subject to namespaceSelector
  return matchLabels(labelSelectorFromObject(selector), a.namespaceLabels ?? {});
}

function objectMatches(selector: LabelSelectorObject | null | undefined, a: AdmissionAttributes): boolean {
  if (!selector || isEmptySelector(selector)) return true;
  const sel = labelSelectorFromObject(selector);
  return [a.object, a.oldObject].some((o) => o !== undefined && o !== null && matchLabels(sel, o.metadata?.labels));
}

const isEmptySelector = (s: LabelSelectorObject) => !s.matchLabels && !(s.matchExpressions?.length);
