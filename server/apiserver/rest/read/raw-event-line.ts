import type { StoreEvent } from '../../store/types';
import { rawObject } from '../codec/object-codec';
import type { ServedType } from '../types/resource-type';

/**
 * One live store event reaches every watcher of its prefix as the same object: the watch line
 * (`{"type":…,"object":…}\n`, as UTF-8 bytes) is encoded once per event and served type and
 * shared by all watchers that want plain objects, instead of once per watcher.
 */
const lines = new WeakMap<StoreEvent, { rt: ServedType; bytes: Buffer }>();

export function rawEventLine(rt: ServedType, e: StoreEvent): Buffer {
  const cached = lines.get(e);
  if (cached?.rt === rt) return cached.bytes;
  const bytes = Buffer.from(`{"type":"${e.type}","object":${rawObject(rt, e.kv)}}\n`);
  lines.set(e, { rt, bytes });
  return bytes;
}
