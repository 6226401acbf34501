import { authorize, forbiddenMessage } from '../authz';
import { logComponentDenial } from '../request-authz';
import { handleAccessReview } from './access-review';
import { VIRTUAL_RESOURCES } from './types/builtin-types';
import type { ResourceRequest } from './handler-context';
import { handleBinding, handleEviction } from './write/pod-subresources';
import { handleTokenRequest } from './write/token-request';
import { handleUploadTokenRequest } from './write/upload-token-request';
import { handleGetScale, handlePatchScale, handleUpdateScale } from './write/scale-subresource';
import { handleGet, handleList, handleWatch } from './read/read-handlers';
import { handlePodLog } from './read/pod-log';
import type { ServedType } from './types/resource-type';
import { badRequest, forbidden, methodNotAllowed, pathNotFound } from './status-error';
import { handleCreate, handleDelete, handleDeleteCollection, handlePatch, handleUpdate } from './write/write-handlers';

type Handler = (r: ResourceRequest) => void | Promise<void>;

const upgradeRequired: Handler = () => { throw badRequest('Upgrade request required'); };

const MAIN: Record<string, Handler> = {
  get: handleGet, list: handleList, watch: handleWatch, create: handleCreate, update: handleUpdate,
  patch: handlePatch, delete: handleDelete, deletecollection: handleDeleteCollection,
};

const SUBRESOURCES: Record<string, Record<string, Handler>> = {
  status: { get: handleGet, update: handleUpdate, patch: handlePatch },
  finalize: { update: handleUpdate },
  binding: { create: handleBinding },
  eviction: { create: handleEviction },
  token: { create: handleTokenRequest },
  scale: { get: handleGetScale, update: handleUpdateScale, patch: handlePatchScale },
  log: { get: handlePodLog },
  // served on the upgrade path (server/apiserver/upgrade-handler.ts); a plain request is kube's 400
  portforward: { get: upgradeRequired, create: upgradeRequired },
};

function hasSubresource(rt: ServedType, sub: string): boolean {
  return (sub === 'status' && rt.subresources.status) || (sub === 'scale' && Boolean(rt.subresources.scale)) || Boolean(rt.extraSubresources?.includes(sub));
}

/** authorizes and dispatches one resource request to its verb handler */
export async function routeResource(r: ResourceRequest): Promise<void> {
  const { rt, info, user } = r;
  const sub = info.subresource;
  if (sub && !hasSubresource(rt, sub)) throw pathNotFound();
  if (!rt.namespaced && info.namespace) throw pathNotFound();
  const needsNamespace = rt.namespaced && ['create', 'get', 'update', 'patch', 'delete', 'deletecollection'].includes(info.verb);
  if (needsNamespace && !info.namespace) throw pathNotFound();
  const attrs = { verb: info.verb, group: rt.group, version: rt.version, resource: rt.resource, subresource: sub, namespace: info.namespace, name: info.name };
  if (!authorize(r.ctx, user, attrs).allowed) {
    logComponentDenial(r.ctx, user, attrs);
    throw forbidden(forbiddenMessage(user, attrs), { name: info.name, group: rt.group, kind: rt.resource });
  }
  if (VIRTUAL_RESOURCES.has(rt.resource)) {
    if (info.verb !== 'create') throw methodNotAllowed();
    return rt.resource === 'uploadtokenrequests' ? handleUploadTokenRequest(r) : handleAccessReview(r);
  }
  // kube-apiserver warns on every request to a deprecated custom resource version
  if (rt.deprecated && rt.deprecationWarning) r.res.setHeader('Warning', `299 - ${JSON.stringify(rt.deprecationWarning)}`);
  const handler = sub ? SUBRESOURCES[sub]?.[info.verb] : MAIN[info.verb];
  if (!handler || (!sub && !rt.verbs.includes(info.verb))) throw methodNotAllowed();
  await handler(r);
}
