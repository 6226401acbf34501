/**
 * What kube-apiserver does to a built-in kind's write besides webhooks: its compiled-in admission
 * plugins (storage ones here) and the registry strategy's validation (422 Invalid with its causes).
 */
import type { ApiContext } from '../api-context';
import { invalid } from '../status-error';
import type { ServedType } from '../types/resource-type';
import { admitStorageCreate, validateStorageUpdate } from './storage-kinds/storage-admission';
import { allocateForServiceWrite } from './service-kinds/service-admission';
import { strategyFor } from './strategies';

type Obj = Record<string, unknown>;

const nameOf = (obj: Obj) => String((obj.metadata as Obj | undefined)?.name ?? '');

/** what to call once the write committed or failed (drops values reserved for it) */
export type FinishWrite = () => void;
const NOTHING: FinishWrite = () => undefined;

/** mutating plugins, then the strategy's Validate, then allocation (Service IPs and ports) */
export function admitBuiltinCreate(ctx: ApiContext, rt: ServedType, obj: Obj): FinishWrite {
  if (!rt.builtin) return NOTHING;
  admitStorageCreate(ctx.store, { group: rt.group, resource: rt.resource, object: obj });
  const causes = strategyFor(rt).validate?.(obj) ?? [];
  if (causes.length) throw invalid(rt, nameOf(obj), causes);
  return allocateForServiceWrite(ctx.store, { group: rt.group, resource: rt.resource, object: obj });
}

/** the strategy's ValidateUpdate (main resource only), then validating plugins, then allocation */
export function admitBuiltinUpdate(ctx: ApiContext, rt: ServedType, obj: Obj, old: Obj, subresource?: string): FinishWrite {
  if (!rt.builtin || subresource) return NOTHING;
  const causes = strategyFor(rt).validateUpdate?.(obj, old) ?? [];
  if (causes.length) throw invalid(rt, nameOf(obj), causes);
  validateStorageUpdate(ctx.store, { group: rt.group, resource: rt.resource, object: obj, oldObject: old });
  return allocateForServiceWrite(ctx.store, { group: rt.group, resource: rt.resource, object: obj, oldObject: old });
}
