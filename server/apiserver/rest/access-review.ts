import { authorize } from '../authz';
import { selfSubjectRulesReview } from '../rbac/rules-review';
import type { ResourceRequest } from './handler-context';
import { parseBody, readBody, sendJson } from './codec/http-io';
import { badRequest } from './status-error';

/** the fields of a review's body the handlers read (JSON as the client sent it) */
interface ReviewBody {
  metadata?: unknown;
  spec?: {
    token?: unknown;
    audiences?: unknown;
    namespace?: unknown;
    user?: string;
    groups?: string[];
    resourceAttributes?: Record<string, unknown>;
    nonResourceAttributes?: Record<string, unknown>;
  };
}

/** POST tokenreviews: who a token belongs to (delegated authentication for aggregated servers) */
function tokenReview(r: ResourceRequest, body: ReviewBody | null): void {
  const spec = body?.spec;
  const token = spec?.token;
  if (typeof token !== 'string' || !token || !spec) throw badRequest('spec.token is required');
  const audiences: string[] | undefined = Array.isArray(spec.audiences) && spec.audiences.length ? spec.audiences.filter((a: unknown) => typeof a === 'string') : undefined;
  const user = r.ctx.authenticateToken?.(token, audiences);
  const status = user ? { authenticated: true, user: { username: user.username, groups: user.groups }, audiences: audiences ?? [] } : { authenticated: false, error: 'invalid bearer token' };
  sendJson(r.res, 201, { kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', metadata: body?.metadata ?? {}, spec, status });
}

/** POST selfsubjectreviews: the caller's own user info (kubectl auth whoami) */
function selfSubjectReview(r: ResourceRequest, body: ReviewBody | null): void {
  sendJson(r.res, 201, { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: body?.metadata ?? {}, status: { userInfo: { username: r.user.username, groups: r.user.groups } } });
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** POST subjectaccessreviews / selfsubjectaccessreviews: evaluates authorize() for the spec; token and self reviews too */
export async function handleAccessReview(r: ResourceRequest): Promise<void> {
  const raw = await readBody(r.req);
  const body = (raw.length ? parseBody(raw, r.req.headers['content-type']) : {}) as ReviewBody | null;
  if (r.rt.resource === 'tokenreviews') return tokenReview(r, body);
  if (r.rt.resource === 'selfsubjectreviews') return selfSubjectReview(r, body);
  if (r.rt.resource === 'selfsubjectrulesreviews') return selfSubjectRulesReview(r, body ?? undefined);
  const spec = body?.spec;
  if (!spec || typeof spec !== 'object') throw badRequest('spec is required');
  const self = r.rt.resource === 'selfsubjectaccessreviews';
  const user = self ? r.user : { username: spec.user ?? '', groups: spec.groups ?? [] };
  if (!self && !user.username && !user.groups.length) throw badRequest('at least one of user or group must be specified');
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  if (ra && nra) throw badRequest('cannot specify both resourceAttributes and nonResourceAttributes');
  if (!ra && !nra) throw badRequest('exactly one of nonResourceAttributes or resourceAttributes must be specified');
  const decision = ra
    ? authorize(r.ctx, user, { verb: str(ra.verb), group: str(ra.group), version: str(ra.version), resource: str(ra.resource), subresource: str(ra.subresource) || undefined, namespace: str(ra.namespace) || undefined, name: str(ra.name) || undefined })
    : authorize(r.ctx, user, { verb: str(nra?.verb), path: str(nra?.path) });
  const status = { allowed: decision.allowed, ...(decision.reason ? { reason: decision.reason } : {}) };
  sendJson(r.res, 201, { kind: r.rt.kind, apiVersion: 'authorization.k8s.io/v1', metadata: body?.metadata ?? {}, spec, status });
}
