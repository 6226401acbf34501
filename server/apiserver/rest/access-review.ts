import { authorize } from '../authz';
import type { ResourceRequest } from './handler-context';
import { parseBody, readBody, sendJson } from './http-io';
import { badRequest } from './status-error';

/** POST subjectaccessreviews / selfsubjectaccessreviews: evaluates authorize() for the spec */
export async function handleAccessReview(r: ResourceRequest): Promise<void> {
  const body = parseBody(await readBody(r.req), r.req.headers['content-type']);
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
