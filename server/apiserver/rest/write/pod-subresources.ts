import { admit } from './admission-gate';
import { deleteObject, deleteOptionsFrom } from './delete-object';
import type { ResourceRequest } from '../handler-context';
import { parseBody, readBody, sendJson } from '../codec/http-io';
import { nowTimestamp } from '../codec/object-codec';
import { badRequest, conflict, statusObject } from '../status-error';
import { updateObject } from './update-object';
import { writeOptionsFrom } from './write-options';
import type { ApiObject } from '../types/api-object';

const SUCCESS = { ...statusObject(201, '', ''), status: 'Success' };

/** POST pods/<name>/binding: assigns the pod to a node once (the scheduler's write) */
export async function handleBinding(r: ResourceRequest): Promise<void> {
  const body = parseBody(await readBody(r.req), r.req.headers['content-type']) as { target?: { name?: unknown } } | null;
  const node = body?.target?.name;
  if (typeof node !== 'string' || !node) throw badRequest('Binding.target.name is required');
  const { ctx, rt, info } = r;
  const rtMain = { ...rt, subresources: { status: false } };
  await updateObject(ctx, {
    rt: rtMain, namespace: info.namespace, name: info.name!,
    mutate: (pod: ApiObject & { spec: { nodeName?: string }; status: { conditions?: { type: string; [field: string]: unknown }[] } }) => {
      if (pod.spec?.nodeName) throw conflict(rt, info.name!, `pod ${info.name} is already assigned to node "${pod.spec.nodeName}"`);
      if (pod.metadata.deletionTimestamp) throw conflict(rt, info.name!, `pod ${info.name} is being deleted, cannot be assigned to a host`);
      pod.spec.nodeName = node;
      const conds = (pod.status.conditions ?? []).filter((c: { type: string }) => c.type !== 'PodScheduled');
      pod.status.conditions = [...conds, { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: nowTimestamp() }];
      delete pod.metadata.resourceVersion;
      return pod;
    },
  }, writeOptionsFrom(info.query, r.user));
  sendJson(r.res, 201, SUCCESS);
}

/**
 * POST pods/<name>/eviction: admission first (CREATE on pods/eviction with the Eviction as the
 * object, as kube-apiserver does: a validating webhook may deny it, e.g. KubeVirt answers 429 and
 * migrates the VM away), then deletes the pod with the eviction's DeleteOptions (no PDBs here).
 */
export async function handleEviction(r: ResourceRequest): Promise<void> {
  const raw = await readBody(r.req);
  const body = (raw.length ? parseBody(raw, r.req.headers['content-type']) : {}) as { metadata?: { name?: unknown }; deleteOptions?: unknown } | null;
  const { ctx, rt, info } = r;
  if (body?.metadata?.name && body.metadata.name !== info.name) throw badRequest('name in URL does not match name in Eviction object');
  const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', ...body, metadata: { ...body?.metadata, name: info.name, namespace: info.namespace } };
  const opts = deleteOptionsFrom(body?.deleteOptions, info.query, r.user);
  await admit(ctx, {
    operation: 'CREATE', rt: { ...rt, kind: 'Eviction' }, subResource: 'eviction', object: eviction,
    namespace: info.namespace, name: info.name, user: r.user, dryRun: opts.dryRun,
  });
  await deleteObject(ctx, rt, info.namespace, info.name!, opts);
  sendJson(r.res, 201, SUCCESS);
}
