import { labelSelectorFromObject, matchLabels } from '../selectors';

export interface AdmissionAttributes {
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  rt: { group: string; version: string; resource: string; kind: string };
  subResource?: string;
  object?: any;
  oldObject?: any;
  namespace?: string;
  namespaceLabels?: Record<string, string>;
}

/**
 * Does this webhook (an entry of a Mutating/ValidatingWebhookConfiguration) apply to the request?
 * Rules (operations, apiGroups, apiVersions, resources with subresources, scope), namespaceSelector
 * and objectSelector, as kube-apiserver evaluates them.
 */
export function webhookApplies(webhook: any, a: AdmissionAttributes): boolean {
  const rules: any[] = webhook.rules ?? [];
  if (!rules.some((r) => ruleMatches(r, a))) return false;
  return namespaceMatches(webhook.namespaceSelector, a) && objectMatches(webhook.objectSelector, a);
}

export function ruleMatches(rule: any, a: AdmissionAttributes): boolean {
  const has = (list: string[] | undefined, v: string) => (list ?? []).some((x) => x === '*' || x === v);
  if (!has(rule.operations, a.operation)) return false;
  if (!has(rule.apiGroups, a.rt.group) || !has(rule.apiVersions, a.rt.version)) return false;
  if (!(rule.resources ?? []).some((r: string) => resourceMatches(r, a.rt.resource, a.subResource ?? ''))) return false;
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

function namespaceMatches(selector: any, a: AdmissionAttributes): boolean {
  if (!selector || isEmptySelector(selector)) return true;
  if (a.rt.resource === 'namespaces' && a.rt.group === '') {
    return matchLabels(labelSelectorFromObject(selector), (a.object ?? a.oldObject)?.metadata?.labels);
  }
  if (!a.namespace) return true; // cluster-scoped objects are not subject to namespaceSelector
  return matchLabels(labelSelectorFromObject(selector), a.namespaceLabels ?? {});
}

function objectMatches(selector: any, a: AdmissionAttributes): boolean {
  if (!selector || isEmptySelector(selector)) return true;
  const sel = labelSelectorFromObject(selector);
  return [a.object, a.oldObject].some((o) => o !== undefined && o !== null && matchLabels(sel, o.metadata?.labels));
}

const isEmptySelector = (s: any) => !s.matchLabels && !(s.matchExpressions?.length);
