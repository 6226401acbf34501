/**
 * A SelfSubjectRulesReview marked `incomplete` (an authorizer other than RBAC — a webhook, Node,
 * an OpenShift-style policy — could not list its rules) gives only a lower bound of the user's
 * rights: what its rules grant is granted, but what they do not may still be. As OpenShift's
 * console does per button (useAccessReview), each right the page needs that the rules do not
 * grant is then asked with a SelfSubjectAccessReview; one that cannot be asked is left to the API
 * server (shown; its 403 still tells). A complete review is read as its rules alone.
 */
import { permissionsFrom, rulesAllow, type Attributes, type NamespacePermissions, type ResourceRule } from './namespace-permissions';

export interface RulesReviewStatus { resourceRules?: ResourceRule[]; incomplete?: boolean }

/** `allowed` of a SelfSubjectAccessReview of these attributes in the namespace (rejects when it cannot be asked) */
export type AccessReview = (namespace: string, a: Attributes) => Promise<boolean>;

/** the body of that SelfSubjectAccessReview */
export function accessReviewBody(namespace: string, a: Attributes) {
  return {
    apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview',
    spec: { resourceAttributes: { namespace, verb: a.verb, group: a.group, resource: a.resource, subresource: a.subresource, name: a.name } },
  };
}

const keyOf = (a: Attributes) => [a.verb, a.group, a.resource, a.subresource ?? '', a.name ?? ''].join('|');

/** every request the page's rights stand for, once each */
export function neededAttributes(namespace: string): Attributes[] {
  const seen = new Map<string, Attributes>();
  permissionsFrom(namespace, (a) => { seen.set(keyOf(a), a); return false; });
  return [...seen.values()];
}

export async function resolveNamespacePermissions(namespace: string, status: RulesReviewStatus | undefined, review: AccessReview): Promise<NamespacePermissions> {
  const rules = status?.resourceRules ?? [];
  if (!status?.incomplete) return permissionsFrom(namespace, (a) => rulesAllow(rules, a));
  const answers = new Map<string, boolean>();
  await Promise.all(neededAttributes(namespace).map(async (a) => {
    const allowed = rulesAllow(rules, a) || (await review(namespace, a).catch(() => true));
    answers.set(keyOf(a), allowed);
  }));
  return permissionsFrom(namespace, (a) => answers.get(keyOf(a)) ?? false);
}
