/**
 * Authorization: kube's RBAC (server/apiserver/rbac) behind system:masters' bypass.
 * Exported for SubjectAccessReview and the request filters.
 */
import type { ApiContext } from './rest/api-context';
import { authorizeWith, type Decision } from './rbac/authorizer';
import type { RequestAttributes } from './rbac/policy';

export interface UserInfo { username: string; groups: string[] }

/** a resource request's attributes, or a non-resource one's (resource undefined, path set) */
export type ResourceAttributes = RequestAttributes;

export { GROUP_MASTERS, type Decision } from './rbac/authorizer';
export const GROUP_VIEWERS = 'kv:viewers';
export const GROUP_AUTHENTICATED = 'system:authenticated';
export const GROUP_UNAUTHENTICATED = 'system:unauthenticated';
export const ANONYMOUS_USER = 'system:anonymous';

/** the RBAC decision for a request (the index is rebuilt after RBAC writes) */
export function authorize(ctx: Pick<ApiContext, 'rbac'>, user: UserInfo, attrs: ResourceAttributes): Decision {
  return authorizeWith(ctx.rbac.current(), user, attrs);
}

/** kube's Forbidden message for a denied request */
export function forbiddenMessage(user: UserInfo, attrs: ResourceAttributes): string {
  if (attrs.resource === undefined) return `forbidden: User "${user.username}" cannot ${attrs.verb} path "${attrs.path ?? ''}"`;
  const res = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  // kube names the object by its group-qualified resource: `deployments.apps "x"`, `pods "y"` (never the subresource)
  const groupResource = attrs.group ? `${attrs.resource}.${attrs.group}` : attrs.resource;
  const named = attrs.name ? `${groupResource} "${attrs.name}"` : groupResource;
  const where = attrs.namespace ? ` in the namespace "${attrs.namespace}"` : '';
  return `${named} is forbidden: User "${user.username}" cannot ${attrs.verb} resource "${res}" in API group "${attrs.group ?? ''}"${attrs.namespace ? where : ' at the cluster scope'}`;
}
