/**
 * What kube-apiserver does to a built-in kind's write besides webhooks: its compiled-in admission
 * plugins (storage ones here) and the registry strategy's validation (422 Invalid with its causes).
 */
import type { ApiContext, User } from '../api-context';
import { isRbacResource } from '../../rbac/policy';
import { confirmRbacWrite } from '../../rbac/escalation';
import { invalid } from '../status-error';
import type { ServedType } from '../types/resource-type';
import { admitStorageCreate, validateStorageUpdate } from './storage-kinds/storage-admission';
import { allocateForServiceWrite } from './service-kinds/service-admission';
import { strategyFor } from './strategies';
import { admitPodServiceAccount } from './pod-kinds/service-account-admission';
import { admitQuotaCreate } from './quota-kinds/quota-admission';

type Obj = Record<string, unknown>;

const nameOf = (obj: Obj) => String((obj.metadata as Obj | undefined)?.name ?? '');
const nsOf = (obj: Obj) => (obj.metadata as Obj | undefined)?.namespace as string | undefined;

/** what to call once the write committed or failed (drops values reserved for it) */
export type FinishWrite = () => void;
const NOTHING: FinishWrite = () => undefined;

/** mutating plugins, then the strategy's Validate, then allocation (Service IPs and ports), then ResourceQuota */
export async function admitBuiltinCreate(ctx: ApiContext, rt: ServedType, obj: Obj, user?: User, dryRun = false): Promise<FinishWrite> {
  if (!rt.builtin) return NOTHING;
  admitStorageCreate(ctx.store, { group: rt.group, resource: rt.resource, object: obj });
  if (rt.group === '' && rt.resource === 'pods') await admitPodServiceAccount(ctx, obj as never, dryRun);
  const causes = strategyFor(rt).validate?.(obj) ?? [];
  if (causes.length) throw invalid(rt, nameOf(obj), causes);
  if (isRbacResource(rt)) confirmRbacWrite(ctx, user, rt.resource, obj as never);
  const release = allocateForServiceWrite(ctx.store, { group: rt.group, resource: rt.resource, object: obj });
  try {
    const unreserve = admitQuotaCreate(ctx.store, { group: rt.group, resource: rt.resource, namespace: rt.namespaced ? nsOf(obj) : undefined, object: obj, dryRun });
    return () => { unreserve(); release(); };
  } catch (err) {
    release();
    throw err;
  }
}

/** the strategy's ValidateUpdate (main resource only), then validating plugins, then allocation */
export function admitBuiltinUpdate(ctx: ApiContext, rt: ServedType, obj: Obj, old: Obj, subresource?: string, user?: User): FinishWrite {
  if (!rt.builtin || subresource) return NOTHING;
  const causes = strategyFor(rt).validateUpdate?.(obj, old) ?? [];
  if (causes.length) throw invalid(rt, nameOf(obj), causes);
  if (isRbacResource(rt)) confirmRbacWrite(ctx, user, rt.resource, obj as never);
  validateStorageUpdate(ctx.store, { group: rt.group, resource: rt.resource, object: obj, oldObject: old });
  return allocateForServiceWrite(ctx.store, { group: rt.group, resource: rt.resource, object: obj, oldObject: old });
}
