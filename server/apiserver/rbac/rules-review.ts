/** POST selfsubjectrulesreviews: the caller's RBAC rules in a namespace (`kubectl auth can-i --list`). */
import type { ResourceRequest } from '../rest/handler-context';
import { sendJson } from '../rest/codec/http-io';

export function selfSubjectRulesReview(r: ResourceRequest, body: { metadata?: unknown; spec?: { namespace?: unknown } } | undefined): void {
  const namespace = typeof body?.spec?.namespace === 'string' ? body.spec.namespace : '';
  const rules = r.ctx.rbac.current().rulesFor(r.user, namespace);
  const resourceRules = rules.filter((x) => !x.nonResourceURLs?.length).map((x) => ({
    verbs: x.verbs, apiGroups: x.apiGroups ?? [], resources: x.resources ?? [], ...(x.resourceNames?.length ? { resourceNames: x.resourceNames } : {}),
  }));
  const nonResourceRules = rules.filter((x) => x.nonResourceURLs?.length).map((x) => ({ verbs: x.verbs, nonResourceURLs: x.nonResourceURLs }));
  sendJson(r.res, 201, {
    kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: body?.metadata ?? {},
    spec: { namespace }, status: { resourceRules, nonResourceRules, incomplete: false },
  });
}
