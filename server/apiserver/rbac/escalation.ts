/**
 * kube's escalation prevention on RBAC writes: a Role or ClusterRole may only hold rules its
 * author holds (or the author may `escalate` it); a binding may only grant a role whose rules
 * its author holds (or the author may `bind` that role). system:masters is exempt. Only
 * cluster-admins may set an aggregationRule. Denials are kube's 403 wording.
 */
import { authorize, GROUP_MASTERS, type UserInfo } from '../authz';
import type { ApiContext } from '../rest/api-context';
import { objectKey } from '../rest/codec/object-codec';
import { forbidden } from '../rest/status-error';
import { compactRules, compactString, uncovered } from './covers';
import { RBAC_GROUP, RBAC_KINDS, type Binding, type PolicyRule, type Role } from './policy';

const FULL_AUTHORITY: PolicyRule[] = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, { nonResourceURLs: ['*'], verbs: ['*'] }];

type Ctx = Pick<ApiContext, 'rbac' | 'store'>;
interface Write { resource: string; namespace?: string; name: string }

const goQuoted = (list: readonly string[]) => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

function refuse(w: Write, message: string): never {
  throw forbidden(`${w.resource}.${RBAC_GROUP} "${w.name}" is forbidden: ${message}`, { name: w.name, group: RBAC_GROUP, kind: w.resource });
}

/** ConfirmNoEscalation: throws 403 unless the user's rules in the namespace cover `rules` */
function confirmNoEscalation(ctx: Ctx, user: UserInfo, w: Write, rules: readonly PolicyRule[]): void {
  const owned = ctx.rbac.current().rulesFor(user, w.namespace ?? '');
  const missing = uncovered(owned, rules);
  if (missing.length === 0) return;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  refuse(w, `user ${JSON.stringify(user.username)} (groups=${goQuoted(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`);
}

const allowed = (ctx: Ctx, user: UserInfo, verb: string, resource: string, namespace: string | undefined, name: string) =>
  authorize(ctx, user, { verb, group: RBAC_GROUP, resource, namespace, name }).allowed;

function checkRole(ctx: Ctx, user: UserInfo, w: Write, role: Role): void {
  if (allowed(ctx, user, 'escalate', w.resource, w.namespace, w.name)) return;
  confirmNoEscalation(ctx, user, w, role.rules ?? []);
  if (w.resource === 'clusterroles' && role.aggregationRule) {
    if (uncovered(ctx.rbac.current().rulesFor(user, ''), FULL_AUTHORITY).length > 0) refuse(w, 'must have cluster-admin privileges to use the aggregationRule');
  }
}

function referencedRules(ctx: Ctx, ref: Binding['roleRef'], namespace: string | undefined): PolicyRule[] | undefined {
  const kind = ref.kind === 'Role' ? RBAC_KINDS.roles : RBAC_KINDS.clusterroles;
  const kv = ctx.store.get(objectKey(kind, ref.kind === 'Role' ? namespace : undefined, ref.name));
  return kv ? ((JSON.parse(kv.value) as Role).rules ?? []) : undefined;
}

function checkBinding(ctx: Ctx, user: UserInfo, w: Write, b: Binding): void {
  const ref = b.roleRef;
  const refResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
  if (allowed(ctx, user, 'bind', refResource, w.namespace, ref.name)) return;
  const rules = referencedRules(ctx, ref, w.namespace);
  if (!rules) refuse(w, `${refResource}.${RBAC_GROUP} "${ref.name}" not found`);
  confirmNoEscalation(ctx, user, w, rules);
}

/** called before an RBAC object is created or updated by `user` */
export function confirmRbacWrite(ctx: Ctx, user: UserInfo | undefined, resource: string, obj: Role | Binding): void {
  if (!user || user.groups.includes(GROUP_MASTERS)) return;
  const w: Write = { resource, namespace: obj.metadata.namespace, name: obj.metadata.name };
  if (resource === 'roles' || resource === 'clusterroles') checkRole(ctx, user, w, obj as Role);
  else checkBinding(ctx, user, w, obj as Binding);
}
