import { authorize, forbiddenMessage, type ResourceAttributes, type UserInfo } from './authz';
import type { ApiContext } from './rest/api-context';
import type { RequestInfo } from './rest/request-info';
import { forbidden } from './rest/status-error';

/** kube's authorizer attributes of a request: the resource, or the path of a non-resource request */
export function requestAttributes(info: RequestInfo): ResourceAttributes {
  if (!info.isResource || !info.resource) return { verb: info.verb, path: info.path };
  return { verb: info.verb, group: info.group, version: info.version, resource: info.resource, subresource: info.subresource, namespace: info.namespace, name: info.name };
}

/** a ServiceAccount refused is most often a component whose ClusterRole lacks a rule: say so in the log */
export function logComponentDenial(ctx: Pick<ApiContext, 'log'>, user: UserInfo, attrs: ResourceAttributes): void {
  if (user.groups.includes('system:serviceaccounts')) ctx.log.warn({ user: user.username, ...attrs }, 'RBAC denied a service account');
}

/**
 * Authorizes a request before anything serves it, aggregated APIs included (as
 * kube-apiserver's filter chain does before its aggregator proxies). Non-resource requests
 * (discovery, /version, /openapi, /metrics) by their path, through RBAC's nonResourceURLs.
 * Throws 403 Forbidden.
 */
export function authorizeRequest(ctx: Pick<ApiContext, 'rbac' | 'log'>, user: UserInfo, info: RequestInfo): void {
  const attrs = requestAttributes(info);
  if (!authorize(ctx, user, attrs).allowed) {
    logComponentDenial(ctx, user, attrs);
    throw forbidden(forbiddenMessage(user, attrs), attrs.resource === undefined ? {} : { name: info.name, group: info.group, kind: info.resource });
  }
}
