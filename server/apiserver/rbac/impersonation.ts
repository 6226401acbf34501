/**
 * kube's impersonation filter: Impersonate-User / Impersonate-Group / Impersonate-Uid turn
 * the request into the named user's, when the signed-in user may `impersonate` each of them
 * (users, groups and uids cluster-wide; a ServiceAccount's username through serviceaccounts
 * in its namespace). Extra fields (Impersonate-Extra-*) are refused: we keep no user extras.
 */
import type { IncomingMessage } from 'node:http';
import { authorize, forbiddenMessage, GROUP_AUTHENTICATED, ANONYMOUS_USER, type ResourceAttributes, type UserInfo } from '../authz';
import type { ApiContext } from '../rest/api-context';
import { badRequest, forbidden } from '../rest/status-error';

const SA_PREFIX = 'system:serviceaccount:';

function headerValues(req: IncomingMessage, name: string): string[] {
  const v = req.headersDistinct?.[name];
  return (v ?? []).map((s) => s.trim()).filter(Boolean);
}

function check(ctx: Pick<ApiContext, 'rbac'>, user: UserInfo, attrs: ResourceAttributes): void {
  if (!authorize(ctx, user, attrs).allowed) throw forbidden(forbiddenMessage(user, attrs), { name: attrs.name, group: attrs.group, kind: attrs.resource });
}

/** the user a request acts as: the signed-in one, or whom it impersonates (403 when not allowed) */
export function impersonatedUser(ctx: Pick<ApiContext, 'rbac'>, user: UserInfo, req: IncomingMessage): UserInfo {
  const names = headerValues(req, 'impersonate-user');
  const groups = headerValues(req, 'impersonate-group');
  const uids = headerValues(req, 'impersonate-uid');
  const hasExtra = Object.keys(req.headers).some((h) => h.startsWith('impersonate-extra-'));
  if (names.length === 0) {
    if (groups.length || uids.length || hasExtra) throw badRequest('requested impersonation of groups, uid or user extras without impersonating a user');
    return user;
  }
  if (hasExtra) throw badRequest('impersonating user extras is not supported');
  const username = names[0];
  const out: string[] = [];
  if (username.startsWith(SA_PREFIX)) {
    const [namespace, name] = username.slice(SA_PREFIX.length).split(':');
    check(ctx, user, { verb: 'impersonate', group: '', resource: 'serviceaccounts', namespace, name });
    if (groups.length === 0) out.push('system:serviceaccounts', `system:serviceaccounts:${namespace}`);
  } else {
    check(ctx, user, { verb: 'impersonate', group: '', resource: 'users', name: username });
  }
  for (const g of groups) {
    check(ctx, user, { verb: 'impersonate', group: '', resource: 'groups', name: g });
    out.push(g);
  }
  for (const uid of uids) check(ctx, user, { verb: 'impersonate', group: 'authentication.k8s.io', resource: 'uids', name: uid });
  if (username !== ANONYMOUS_USER && !out.includes(GROUP_AUTHENTICATED)) out.push(GROUP_AUTHENTICATED);
  return { username, groups: out };
}
