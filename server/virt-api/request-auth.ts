/**
 * Who is asking, and may they? Through the API server (aggregation) the caller is in
 * X-Remote-User / X-Remote-Group, trusted only on a connection whose client certificate the
 * cluster CA signed (kube's request-header authentication). Direct callers present a bearer token,
 * which the API server itself checks. Either way the decision is a SubjectAccessReview on
 * `subresources.kubevirt.io` (verb `update` for PUT, `get` for GET and the console sockets).
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { SUBRESOURCES_GROUP } from '../../lib/kubevirt';
import { messageOf } from '../kube/api-errors';
import { makeKubeConfig } from '../kube/kubeconfig';
import { ApiError, internal, unauthorized } from './api-error';
import { exchangeJson } from '../kube/raw-request';

export const HEADER_REMOTE_USER = 'x-remote-user';
export const HEADER_REMOTE_GROUP = 'x-remote-group';

export type Caller =
  | { kind: 'user'; username: string; groups: string[] }
  | { kind: 'token'; token: string };

export interface Access {
  verb: 'get' | 'update';
  namespace: string;
  /** `virtualmachines`, `virtualmachineinstances` or `expand-vm-spec` */
  resource: string;
  /** '' for expand-vm-spec */
  subresource: string;
  /** '' for expand-vm-spec */
  name: string;
}

function headerList(v: string | string[] | undefined): string[] {
  return (Array.isArray(v) ? v : v ? [v] : []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
}

export function identifyCaller(req: IncomingMessage): Caller {
  const socket = req.socket as TLSSocket;
  const user = req.headers[HEADER_REMOTE_USER];
  if (socket.authorized && typeof user === 'string' && user) {
    return { kind: 'user', username: user, groups: headerList(req.headers[HEADER_REMOTE_GROUP]) };
  }
  const m = /^bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (m) return { kind: 'token', token: m[1].trim() };
  throw unauthorized('Unauthorized');
}

const forbiddenMessage = (who: string, a: Access) =>
  `User "${who}" cannot ${a.verb} resource "${a.subresource ? `${a.resource}/${a.subresource}` : a.resource}" in API group "${SUBRESOURCES_GROUP}" in the namespace "${a.namespace}"`;

function denied(who: string, access: Access): ApiError {
  // a resource without a name (expand-vm-spec) is named by resource and group, as Kubernetes does
  if (!access.name) return new ApiError(403, 'Forbidden', `${access.resource}.${SUBRESOURCES_GROUP} is forbidden: ${forbiddenMessage(who, access)}`);
  const named = access.resource === 'virtualmachines' ? 'virtualmachine.kubevirt.io' : 'virtualmachineinstance.kubevirt.io';
  return new ApiError(403, 'Forbidden', `${named} "${access.name}" is forbidden: ${forbiddenMessage(who, access)}`);
}

/** The user a kube Forbidden message names (`... User "viewer" cannot ...`); a token caller's name is only known this way. */
function userInDenial(message: unknown): string | undefined {
  return typeof message === 'string' ? /User "([^"]*)"/.exec(message)?.[1] : undefined;
}

/** A token caller's user name (a SelfSubjectReview as that caller; an access review's answer does not name the user). */
async function whoAmI(asKc: KubeConfig): Promise<string> {
  const res = await exchangeJson<{ status?: { userInfo?: { username?: string } } }>(asKc, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }).catch(() => undefined);
  return res?.json?.status?.userInfo?.username ?? 'unknown';
}

export interface Authorizer {
  /** Throws 401/403 as an ApiError when the caller may not. */
  check(caller: Caller, access: Access): Promise<void>;
}

/** `kc` is virt-api's own identity (for SubjectAccessReviews); `caPem` verifies the server for token callers. */
export function createAuthorizer(kc: KubeConfig): Authorizer {
  const server = kc.getCurrentCluster()?.server ?? '';
  const ca = kc.getCurrentCluster()?.caData ? Buffer.from(kc.getCurrentCluster()!.caData!, 'base64').toString() : undefined;
  const resourceAttributes = (a: Access) => ({ namespace: a.namespace, verb: a.verb, group: SUBRESOURCES_GROUP, resource: a.resource, subresource: a.subresource || undefined, name: a.name || undefined });
  return {
    async check(caller, access) {
      const self = caller.kind === 'token';
      const review = {
        apiVersion: 'authorization.k8s.io/v1', kind: self ? 'SelfSubjectAccessReview' : 'SubjectAccessReview',
        spec: self ? { resourceAttributes: resourceAttributes(access) } : { user: caller.username, groups: caller.groups, resourceAttributes: resourceAttributes(access) },
      };
      const asKc = self ? makeKubeConfig({ server, token: caller.token, caPem: ca }) : kc;
      let res;
      try {
        res = await exchangeJson<{ message?: string; status?: { allowed?: boolean } }>(asKc, 'POST', `/apis/authorization.k8s.io/v1/${self ? 'selfsubjectaccessreviews' : 'subjectaccessreviews'}`, review);
      } catch (err) {
        throw internal(`unable to authorize the request: ${messageOf(err)}`);
      }
      if (res.status === 401) throw unauthorized('Unauthorized');
      if (res.status === 403 && self) throw denied(userInDenial(res.json?.message) ?? await whoAmI(asKc), access);
      if (res.status >= 300) throw internal(`unable to authorize the request: ${res.json?.message ?? res.status}`);
      if (res.json?.status?.allowed) return;
      throw denied(caller.kind === 'user' ? caller.username : await whoAmI(asKc), access);
    },
  };
}
