/**
 * kube-apiserver's authorizer chain, as far as we have it: group system:masters may do
 * anything (kube's privileged-group short cut), then RBAC. No opinion = denied.
 */
import type { RequestAttributes } from './policy';
import type { RbacIndex, UserRef } from './rbac-index';

export const GROUP_MASTERS = 'system:masters';

export interface Decision { allowed: boolean; reason: string }

export function authorizeWith(index: RbacIndex, user: UserRef, attrs: RequestAttributes): Decision {
  if (user.groups.includes(GROUP_MASTERS)) return { allowed: true, reason: '' };
  const grant = index.allowingGrant(user, attrs);
  return grant ? { allowed: true, reason: `RBAC: allowed by ${grant.source}` } : { allowed: false, reason: '' };
}
