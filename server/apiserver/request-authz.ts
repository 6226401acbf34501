import { authorize, forbiddenMessage, type UserInfo } from './authz';
import type { RequestInfo } from './rest/request-info';
import { forbidden } from './rest/status-error';

/**
 * Authorizes a resource request before anything serves it, aggregated APIs included
 * (as kube-apiserver's filter chain does before its aggregator proxies). Non-resource
 * requests (discovery) are open to every signed-in user. Throws 403 Forbidden.
 */
export function authorizeRequest(user: UserInfo, info: RequestInfo): void {
  if (!info.isResource || !info.resource) return;
  const attrs = { verb: info.verb, group: info.group, version: info.version, resource: info.resource, subresource: info.subresource, namespace: info.namespace, name: info.name };
  if (!authorize(user, attrs).allowed) {
    throw forbidden(forbiddenMessage(user, attrs), { name: info.name, group: info.group, kind: info.resource });
  }
}
