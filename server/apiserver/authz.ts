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
/** What kube's `view` and KubeVirt's `kubevirt.io:view` roles leave out: secrets, guest consoles and port-forwarding. */
const NOT_VIEWABLE = new Set([
  '/secrets', '/nodes/proxy', 'subresources.kubevirt.io/virtualmachineinstances/vnc', 'subresources.kubevirt.io/virtualmachineinstances/console',
  'subresources.kubevirt.io/virtualmachineinstances/portforward', 'subresources.kubevirt.io/virtualmachines/portforward',
]);
/** Every signed-in user may ask what they themselves may do (kube's system:basic-user). */
const SELF_REVIEWS = new Set(['selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'selfsubjectreviews']);

function isViewable(attrs: ResourceAttributes): boolean {
  // `vnc/screenshot` is governed by `vnc`, as in KubeVirt's roles
  const sub = attrs.subresource?.split('/')[0];
  return !NOT_VIEWABLE.has(`${attrs.group ?? ''}/${attrs.resource}${sub ? `/${sub}` : ''}`);
}

export interface Decision { allowed: boolean; reason: string }

export function authorize(user: UserInfo, attrs: ResourceAttributes): Decision {
  if (user.groups.includes(GROUP_MASTERS)) return { allowed: true, reason: `group "${GROUP_MASTERS}" may do anything` };
  if (attrs.verb === 'create' && (attrs.group === 'authorization.k8s.io' || attrs.group === 'authentication.k8s.io') && SELF_REVIEWS.has(attrs.resource ?? '') && user.groups.includes(GROUP_AUTHENTICATED)) {
    return { allowed: true, reason: 'every authenticated user may review their own access' };
  }
  if (user.groups.includes(GROUP_VIEWERS) && READ_VERBS.has(attrs.verb) && isViewable(attrs)) return { allowed: true, reason: `group "${GROUP_VIEWERS}" may read` };
  return { allowed: false, reason: '' };
}

/** kube's Forbidden message for a denied request */
export function forbiddenMessage(user: UserInfo, attrs: ResourceAttributes): string {
  const res = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  // kube names the object by its group-qualified resource: `deployments.apps "x"`, `pods "y"` (never the subresource)
  const groupResource = attrs.group ? `${attrs.resource}.${attrs.group}` : attrs.resource;
  const named = attrs.name ? `${groupResource} "${attrs.name}"` : groupResource;
  const where = attrs.namespace ? ` in the namespace "${attrs.namespace}"` : '';
  return `${named} is forbidden: User "${user.username}" cannot ${attrs.verb} resource "${res}" in API group "${attrs.group ?? ''}"${attrs.namespace ? where : ' at the cluster scope'}`;
}
