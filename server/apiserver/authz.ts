/**
 * Authorization, kept simple: group system:masters may do anything, group kv:viewers
 * may read (get/list/watch). Exported for SubjectAccessReview and for virt-api.
 */
export interface UserInfo { username: string; groups: string[] }

export interface ResourceAttributes {
  verb: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export const GROUP_MASTERS = 'system:masters';
export const GROUP_VIEWERS = 'kv:viewers';
export const GROUP_AUTHENTICATED = 'system:authenticated';
const READ_VERBS = new Set(['get', 'list', 'watch']);

export interface Decision { allowed: boolean; reason: string }

export function authorize(user: UserInfo, attrs: ResourceAttributes): Decision {
  if (user.groups.includes(GROUP_MASTERS)) return { allowed: true, reason: `group "${GROUP_MASTERS}" may do anything` };
  if (user.groups.includes(GROUP_VIEWERS) && READ_VERBS.has(attrs.verb)) return { allowed: true, reason: `group "${GROUP_VIEWERS}" may read` };
  return { allowed: false, reason: '' };
}

/** kube's Forbidden message for a denied request */
export function forbiddenMessage(user: UserInfo, attrs: ResourceAttributes): string {
  const res = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const named = attrs.name ? `${res} "${attrs.name}"` : res;
  const where = attrs.namespace ? ` in the namespace "${attrs.namespace}"` : '';
  return `${named} is forbidden: User "${user.username}" cannot ${attrs.verb} resource "${res}" in API group "${attrs.group ?? ''}"${attrs.namespace ? where : ' at the cluster scope'}`;
}
