import type { StoreEvent } from '../../store/types';
import { decodeObject } from '../codec/object-codec';
import type { ApiObject } from '../types/api-object';
import type { ServedType } from '../types/resource-type';

export interface DecodedEvent {
  /** the object after the event (for DELETED: its last state) */
  object: ApiObject;
  /** the object before it (MODIFIED and DELETED), for selector transitions */
  previous?: ApiObject;
}

const decoded = new WeakMap<StoreEvent, { rt: ServedType; d: DecodedEvent }>();

/**
 * One live store event decoded once per served type and shared by every watcher with a selector,
 * instead of two JSON.parses per event and watcher (N kubelets watching Pods by spec.nodeName
 * parsed each Pod event 2N times). The objects are shared: watchers only read them (selectors,
 * JSON.stringify, Table and metadata views built as new objects).
 */
export function decodedEvent(rt: ServedType, e: StoreEvent): DecodedEvent {
  const cached = decoded.get(e);
  if (cached?.rt === rt) return cached.d;
  const d: DecodedEvent = { object: decodeObject(rt, e.kv) };
  if (e.prevValue !== undefined) d.previous = decodeObject(rt, e.kv, e.prevValue);
  decoded.set(e, { rt, d });
  return d;
}
