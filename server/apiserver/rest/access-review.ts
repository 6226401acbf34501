import { authorize } from '../authz';
import type { ResourceRequest } from './handler-context';
import { parseBody, readBody, sendJson } from './codec/http-io';
import { badRequest } from './status-error';

/** POST tokenreviews: who a token belongs to (delegated authentication for aggregated servers) */
function tokenReview(r: ResourceRequest, body: any): void {
  const token = body?.spec?.token;
  if (typeof token !== 'string' || !token) throw badRequest('spec.token is required');
  const audiences: string[] | undefined = Array.isArray(body.spec.audiences) && body.spec.audiences.length ? body.spec.audiences.filter((a: unknown) => typeof a === 'string') : undefined;
  const user = r.ctx.authenticateToken?.(token, audiences);
  const status = user ? { authenticated: true, user: { username: user.username, groups: user.groups }, audiences: audiences ?? [] } : { authenticated: false, error: 'invalid bearer token' };
  sendJson(r.res, 201, { kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', metadata: body.metadata ?? {}, spec: body.spec, status });
}

/** POST selfsubjectreviews: the caller's own user info (kubectl auth whoami) */
function selfSubjectReview(r: ResourceRequest, body: any): void {
  sendJson(r.res, 201, { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: body?.metadata ?? {}, status: { userInfo: { username: r.user.username, groups: r.user.groups } } });
}

/** POST subjectaccessreviews / selfsubjectaccessreviews: evaluates authorize() for the spec; token and self reviews too */
export async function handleAccessReview(r: ResourceRequest): Promise<void> {
  const raw = await readBody(r.req);
  const body = raw.length ? parseBody(raw, r.req.headers['content-type']) : {};
  if (r.rt.resource === 'tokenreviews') return tokenReview(r, body);
  if (r.rt.resource === 'selfsubjectreviews') return selfSubjectReview(r, body);
  const spec = body?.spec;
  if (!spec || typeof spec !== 'object') throw badRequest('spec is required');
  const self = r.rt.resource === 'selfsubjectaccessreviews';
  const user = self ? r.user : { username: spec.user ?? '', groups: spec.groups ?? [] };
  if (!self && !user.username && !user.groups.length) throw badRequest('at least one of user or group must be specified');
  const ra = spec.resourceAttributes;
  const decision = ra
    ? authorize(user, { verb: ra.verb, group: ra.group, version: ra.version, resource: ra.resource, subresource: ra.subresource, namespace: ra.namespace, name: ra.name })
    : authorize(user, { verb: spec.nonResourceAttributes?.verb ?? 'get' });
  const status = { allowed: decision.allowed, ...(decision.reason ? { reason: decision.reason } : {}) };
  sendJson(r.res, 201, { kind: r.rt.kind, apiVersion: 'authorization.k8s.io/v1', metadata: body.metadata ?? {}, spec, status });
}
